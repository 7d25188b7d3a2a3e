// A launch that covers only part of its data (4 blocks of 64 threads over N elements): the
// threads past the grid do not run. Used by the mutation test (tests/test_opt.c): a kernel that
// writes the recorded grid's extent while it claims to be right at any grid is caught at a grid
// the user did not give.
#ifndef N
#define N 1000
#endif
#pragma carve launch part grid(4) block(64)
#pragma carve arg x = float[N] : random(1)
#pragma carve arg y = float[N] : random(2) out
#pragma carve arg n = N

__global__ void part(const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = 2.0f * x[i] + 1.0f;
}
