/* Every binary16 operation carve computes, on 4096 random bit patterns: the interpreter's results
 * here, and tests/cxx/gpu.sh compares them bit for bit with an H100's (`carve bench --verify`
 * compares integer buffers exactly; __half buffers are their bits, any NaN equal to any NaN);
 * bench/probe/half_ops.sh counts the differences per operation. The arithmetic takes NaN inputs
 * replaced by 1.0 (`h != h` is the unordered __hneu: true for a NaN); the comparisons and
 * min/max take the raw bits, NaNs among them (__hne is ordered: false for a NaN, as every
 * setp comparison). The inputs are given as unsigned short buffers, whose random() is bit
 * patterns; a __half buffer's random() is values. */
#include <cuda_fp16.h>

#pragma carve launch half_ops grid(16) block(256)
#pragma carve arg a = unsigned short[4096] : random(1, 0, 65536)
#pragma carve arg b = unsigned short[4096] : random(2, 0, 65536)
#pragma carve arg c = unsigned short[4096] : random(3, 0, 65536)
#pragma carve arg sum = __half[4096] : zeros out
#pragma carve arg diff = __half[4096] : zeros out
#pragma carve arg prod = __half[4096] : zeros out
#pragma carve arg quot = __half[4096] : zeros out
#pragma carve arg fma = __half[4096] : zeros out
#pragma carve arg fma2 = __half2[2048] : zeros out
#pragma carve arg conv = __half[4096] : zeros out
#pragma carve arg cmp = unsigned char[4096] : zeros out
#pragma carve arg mn = __half[4096] : zeros out
#pragma carve arg mx = __half[4096] : zeros out

__device__ __half finite(__half h) { return h != h ? __float2half(1.0f) : h; }

__global__ void half_ops(const __half *a, const __half *b, const __half *c, __half *sum, __half *diff, __half *prod,
                         __half *quot, __half *fma, __half2 *fma2, __half *conv, unsigned char *cmp, __half *mn, __half *mx) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  __half x = finite(a[i]), y = finite(b[i]), z = finite(c[i]);
  sum[i] = __hadd(x, y);
  diff[i] = x - y;
  prod[i] = __hmul(x, y);
  quot[i] = x / y;
  fma[i] = __hfma(x, y, z);
  if (i < 2048) fma2[i] = __hfma2(__halves2half2(x, y), __halves2half2(y, z), __halves2half2(z, x));
  conv[i] = __float2half(__half2float(x) * 1.0001f);
  __half p = a[i], q = b[i];
  cmp[i] = (unsigned char)(__heq(p, q) | __hne(p, q) << 1 | __hlt(p, q) << 2 | __hle(p, q) << 3 | __hgt(p, q) << 4 |
                           __hge(p, q) << 5 | (p != q) << 6 | (p < q) << 7);
  mn[i] = __hmin(p, q);
  mx[i] = __hmax(p, q);
}
