/* The native engine (tests/native/run.sh runs each kernel here on both engines, bit-identical,
 * no fallback allowed). In a file of its own: its static __shared__ array would count in the
 * shared memory of edges.cu's kernels (the --shared test there names the bytes). */
#define N 65536
/* a synchronizing device function (inlined at the level of the barriers) calling a plain one
 * with an early return (mergeSort's merge and binarySearchExclusive): the plain function's
 * returns are its own */
__device__ unsigned below(unsigned v, const unsigned *d, unsigned len) {
  if (len == 0) return 0;
  unsigned pos = 0;
  for (unsigned k = 0; k < len; k++)
    if (d[k] < v) pos++;
  return pos;
}
__device__ void rank_sync(const unsigned *x, unsigned *o, unsigned len) {
  __shared__ unsigned s[64];
  s[threadIdx.x] = x[blockIdx.x * 64 + threadIdx.x];
  __syncthreads();
  unsigned r = below(s[threadIdx.x], s, threadIdx.x < 32 ? len : 0u);
  __syncthreads();
  o[blockIdx.x * 64 + threadIdx.x] = r;
}
#pragma carve launch ranks grid(N/64) block(64)
#pragma carve arg x = unsigned[N] : random(9, 0, 1000)
#pragma carve arg o = unsigned[N] : zeros out
__global__ void ranks(const unsigned *x, unsigned *o) { rank_sync(x, o, 64u); }
