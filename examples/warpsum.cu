/* warpsum: per-warp sums with a __shfl_down_sync tree inside a __device__ __forceinline__ function.
 * Written on the spot to check carve on a kernel its tests did not contain. */
#pragma carve launch warpsum grid(8) block(128)
#pragma carve arg x = int[1024] : iota(1)
#pragma carve arg sums = int[32] : zeros out
__device__ __forceinline__ int warp_reduce(int v) {
  for (int off = warpSize / 2; off > 0; off >>= 1) v += __shfl_down_sync(0xffffffffu, v, off);
  return v;
}
__global__ void warpsum(const int *x, int *sums) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int v = warp_reduce(x[i]);
  if ((threadIdx.x & 31) == 0) sums[i / 32] = v;
}
