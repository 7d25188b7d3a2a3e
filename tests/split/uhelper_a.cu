// expect: an index helper with unsigned parameters called with int arguments has its
// expression's affine form (the implicit conversions of the arguments), so stencil merges rows
#ifndef N
#define N 64
#endif
#pragma carve launch k grid(N/32, N/8) block(32, 8)
#pragma carve arg A = float[N*N] : random(1)
#pragma carve arg B = float[N*N] : random(2) out
#pragma carve arg n = N
__device__ unsigned at(unsigned r, unsigned c, unsigned n) { return r * n + c; }
__global__ void k(const float *A, float *B, int n) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  int i = blockIdx.y * blockDim.y + threadIdx.y;
  if (i > 0 && i < n - 1 && j < n) B[at(i, j, n)] = A[at(i - 1, j, n)] + A[at(i + 1, j, n)] + A[at(i, j, n)];
}
