// expect: run 1 6:22: error: call to 'f', which is declared but never defined
#pragma carve launch k grid(1) block(32)
#pragma carve arg out = int[32] : zeros out
__device__ int f(int x);
__global__ void k(int *out) {
  out[threadIdx.x] = f(1);
}
