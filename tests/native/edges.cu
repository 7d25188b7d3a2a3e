/* The native engine's edge cases (tests/native/run.sh): each kernel runs on both engines and its
 * outputs must be bit-identical; none may fall back to the interpreter. What C leaves undefined
 * gets the GPU's answer in both (saturating conversions, clamped shifts, INT_MIN / -1), FMA
 * contraction as add_type marks it, the math library, atomics, control flow, barriers with early
 * returns, warp operations on a partial warp, shared, constant and device memory. */
#define N 65536

__constant__ float ctab[4] = {0.5f, -1.25f, 3.0f, 1e30f};
__device__ int dcount[4];

#pragma carve launch arith grid(N/128) block(128)
#pragma carve arg x = float[N] : random(1, -3e9, 3e9)
#pragma carve arg o = int[N*8] : zeros out
#pragma carve arg f = float[N*4] : zeros out
__global__ void arith(const float *x, int *o, float *f) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = x[i];
  int a = (int)v;                                  /* saturates */
  unsigned u = (unsigned)v;                        /* negative: 0 */
  o[i * 8 + 0] = a;
  o[i * 8 + 1] = (int)u;
  o[i * 8 + 2] = (i & 7) == 3 ? (-2147483647 - 1) / -1 : a / ((i & 3) + 1);
  o[i * 8 + 3] = a << (i & 63);                    /* clamped at 32 */
  o[i * 8 + 4] = a >> (i & 63);
  o[i * 8 + 5] = (int)(u >> (i & 63));
  o[i * 8 + 6] = (int)(short)(a * 7919) % 13;
  o[i * 8 + 7] = __float2int_rn(v * 1e-3f) + __mul24(a, 3) + __popc(u) + __clz(a) + __ffs(a) + (int)__brev(u);
  float s = v * 1e-9f;
  f[i * 4 + 0] = s * s + ctab[i & 3];              /* contracted: fmaf */
  f[i * 4 + 1] = sinf(s) * cosf(s) - expf(s) / (1.0f + s * s);
  f[i * 4 + 2] = __expf(s) + __logf(fabsf(s) + 1.0f) + rsqrtf(fabsf(s) + 2.0f) + powf(fabsf(s), 0.3f);
  double d = (double)s;
  f[i * 4 + 3] = (float)(d * d - sqrt(fabs(d)) + fmin(d, 0.25) + (double)fmaxf(s, -0.5f));
}

#pragma carve launch flow grid(N/256) block(256)
#pragma carve arg x = int[N] : random(2, 0, 1000)
#pragma carve arg o = int[N] : zeros out
__global__ void flow(const int *x, int *o) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int v = x[i], acc = 0;
  switch (v % 5) {
  case 0: acc += 1;
  case 1: acc += 10; break;
  case 3: { int t = v * 3; acc = t; } break;
  default: acc = -v;
  }
  int k = 0;
  do {
    k++;
    if (k == 2) continue;
    acc += k * v;
    if (acc > 100000) break;
  } while (k < (v & 15));
  for (int j = 0; j < 40; j++) {
    if ((j ^ v) & 1) continue;
    acc ^= j << (v & 7);
  }
  o[i] = acc;
}

#pragma carve launch atom grid(N/256) block(256)
#pragma carve arg x = int[N] : random(3, -100000, 100000)
#pragma carve arg m = int[8] : zeros out
__global__ void atom(const int *x, int *m) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int v = x[i];
  atomicMax(&m[0], v);
  atomicMin(&m[1], v);
  atomicAdd(&m[2], v & 255);
  atomicOr(&m[3], 1 << (v & 31));
  atomicXor(&m[4], v);
  atomicSub(&m[5], 3);
  atomicAnd(&m[6], ~(1 << (v & 7)));
  atomicAdd(&dcount[i & 3], 1);                    /* a __device__ variable */
}

/* an ordered atomic: its result is used (the interpreter's order: blocks, then lanes) */
#pragma carve launch ticket grid(N/128) block(128)
#pragma carve arg c = unsigned int[1] : zeros out
#pragma carve arg o = unsigned int[N] : zeros out
__global__ void ticket(unsigned int *c, unsigned int *o) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  o[i] = atomicInc(c, 1000u);
}

/* barriers with early returns, promoted locals, a uniform loop, extern shared memory */
#pragma carve launch tree grid(N/200) block(200) shared(800)
#pragma carve arg x = float[N] : random(4)
#pragma carve arg o = float[N] : zeros out
__global__ void tree(const float *x, float *o) {
  extern __shared__ float s[];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  float mine = x[i] * 2.0f;
  s[t] = mine;
  __syncthreads();
  if (t >= 190) return;                            /* returned threads do not block barriers */
  for (int stride = 1; stride < 190; stride *= 2) {
    float add = (t + stride < 190) ? s[t + stride] : 0.0f;
    __syncthreads();
    s[t] += add;
    __syncthreads();
  }
  o[i] = s[t] - mine;
}

/* warp operations on a partial last warp (48 threads), with widths and votes */
__device__ float wsum(float v, int width) {
  for (int off = width / 2; off > 0; off >>= 1) v += __shfl_xor_sync(0xffffffffu, v, off, width);
  return v;
}
#pragma carve launch warps grid(N/48) block(48)
#pragma carve arg x = float[N] : random(5)
#pragma carve arg o = float[N] : zeros out
#pragma carve arg b = unsigned int[N] : zeros out
__global__ void warps(const float *x, float *o, unsigned int *b) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int lane = threadIdx.x & 31;
  float v = x[i];
  unsigned full = threadIdx.x < 32 ? 0xffffffffu : 0x0000ffffu;
  float up = __shfl_up_sync(full, v, 3);
  float down = __shfl_down_sync(full, v, 2, 8);
  float bc = __shfl_sync(full, v, 5, 16);
  unsigned bal = __ballot_sync(full, v > 0.5f);
  int any = __any_sync(full, v > 0.99f), all = __all_sync(full, v > 0.01f);
  float w = 0.0f;
  if (threadIdx.x < 32) w = wsum(v, 32);           /* uniform in each warp: run warp by warp */
  __syncwarp();
  o[i] = up + down * 2.0f + bc * 4.0f + w + (float)lane;
  b[i] = bal ^ (unsigned)(any << 1) ^ (unsigned)all ^ __activemask();
}

/* pointers as integers (alignment), float4 loads, a struct, a local array */
struct pair { float a; int b; };
#pragma carve launch mem grid(N/256) block(256)
#pragma carve arg x = float[N] : random(6)
#pragma carve arg o = float[N] : zeros out
__global__ void mem(const float *x, float *o) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  const float *q = x + (i & ~3);
  float r = 0.0f;
  if (((unsigned long long)q & 15ull) == 0ull) {
    float4 v = *(const float4 *)q;
    r = v.x + v.y * 2.0f + v.z * 3.0f + v.w * 4.0f;
  }
  struct pair p = {x[i], i & 7};
  float loc[5] = {1.0f, 2.0f};
  for (int k = 0; k < 5; k++) loc[k] += p.a * (float)k;
  o[i] = r + loc[p.b % 5] + (float)p.b;
}

/* cooperative groups: the block, tiles of 16, tile shuffles, reduce with min, max and xor */
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;
#pragma carve launch groups grid(N/128) block(128)
#pragma carve arg x = int[N] : random(7, -1000, 1000)
#pragma carve arg o = int[N] : zeros out
__global__ void groups(const int *x, int *o) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<16> tile = cg::tiled_partition<16>(block);
  int i = blockIdx.x * blockDim.x + block.thread_rank();
  int v = x[i];
  int lo = cg::reduce(tile, v, cg::less<int>());
  int hi = cg::reduce(tile, v, cg::greater<int>());
  int xr = cg::reduce(tile, v, cg::bit_xor<int>());
  int nb = tile.shfl_down(v, 3);
  block.sync();
  o[i] = lo * 7 + hi * 3 + xr + nb + (int)tile.meta_group_rank();
}
