// expect: run 1 6:22: error: out-of-bounds global read of 4 bytes: element 4 of 'g' (4 elements)
#pragma carve launch k grid(1) block(32)
#pragma carve arg out = int[32] : zeros out
__device__ int g[4];
__global__ void k(int *out) {
  out[threadIdx.x] = g[threadIdx.x];
}
