// expect: run 1 4:34: error: call depth exceeds
#pragma carve launch k grid(1) block(32)
#pragma carve arg out = int[32] : zeros out
__device__ int f(int n) { return f(n + 1) + 1; }
__global__ void k(int *out) {
  out[threadIdx.x] = f(0);
}
