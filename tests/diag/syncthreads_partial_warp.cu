// expect: run 1 6:5: error: __syncthreads reached by only part of a warp
#pragma carve launch k grid(1) block(32)
#pragma carve arg out = int[32] : zeros out
__global__ void k(int *out) {
  if (threadIdx.x < 16)
    __syncthreads();
  out[threadIdx.x] = 1;
}
