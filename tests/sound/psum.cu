// An atomic sum over part of its data (32 blocks of 256 threads over N elements). Used by the
// mutation test (tests/test_opt.c): the recorded grid written into a kernel called grid-generic
// is caught at a grid the user did not give.
#ifndef N
#define N 20000
#endif
#pragma carve launch psum grid(32) block(256)
#pragma carve arg x = int[N] : random(1, 0, 9)
#pragma carve arg out = int[1] : zeros out
#pragma carve arg n = N

__global__ void psum(const int *x, int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomicAdd(out, x[i]);
}
