// expect: run 1 9:5: error: divergent __syncthreads: warp 1 waits here while warp 0 waits at line 7
#pragma carve launch k grid(1) block(64)
#pragma carve arg out = int[64] : zeros out
__global__ void k(int *out) {
  out[threadIdx.x] = 1;
  if (threadIdx.x < 32)
    __syncthreads();
  else
    __syncthreads();
}
