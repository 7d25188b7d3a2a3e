/* Half-precision axpy as cuBLAS-style code writes it: __half scalars and arrays, half2 for two
 * elements at a time, the intrinsics and the operators, a float accumulation of the result.
 * Launch settings give __half values as numbers rounded to half (docs/cxx.md): x steps through
 * 1.0, 1.0009765625, ... (one half ulp at 1.0, 2^-10, each step). */
#include <cuda_fp16.h>

#pragma carve launch haxpy grid(2) block(128)
#pragma carve arg n = 500
#pragma carve arg a = 0.5
#pragma carve arg x = __half[512] : iota(1, 0.0009765625)
#pragma carve arg y = __half[512] : fill(2) out
#pragma carve arg norm = float[1] : zeros out
__global__ void haxpy(int n, __half a, const __half *x, __half *y, float *norm) {
  int i = 2 * (blockIdx.x * blockDim.x + threadIdx.x);
  if (i + 1 < n) {
    /* two elements as one half2: y = a*x + y with one rounding each (fma) */
    half2 a2 = __halves2half2(a, a);
    half2 x2 = __halves2half2(x[i], x[i + 1]);
    half2 y2 = __halves2half2(y[i], y[i + 1]);
    y2 = __hfma2(a2, x2, y2);
    y[i] = __low2half(y2);
    y[i + 1] = __high2half(y2);
  } else if (i < n) {
    y[i] = a * x[i] + y[i];   /* the operators: a multiply and an add, each rounded */
  }
  float s = i < n ? __half2float(y[i]) * __half2float(y[i]) : 0.0f;
  for (int o = 16; o > 0; o /= 2) s += __shfl_down_sync(0xffffffffu, s, o);
  if (threadIdx.x % 32 == 0) atomicAdd(norm, s);
}
