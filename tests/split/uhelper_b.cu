// expect: the same with size_t parameters and a size_t result, one of them a kernel parameter
#ifndef N
#define N 64
#endif
#pragma carve launch k2 grid(N/32, N/8) block(32, 8)
#pragma carve arg A = float[N*N] : random(1)
#pragma carve arg B = float[N*N] : random(2) out
#pragma carve arg n = N
__device__ size_t idx2(size_t row, size_t col, size_t width) { return row * width + col; }
__global__ void k2(const float *A, float *B, int n) {
  int i = threadIdx.y + blockDim.y * blockIdx.y, j = threadIdx.x + blockDim.x * blockIdx.x;
  if (i < 1 || i >= n - 1 || j >= n) return;
  B[idx2(i, j, n)] = 0.5f * (A[idx2(i - 1, j, n)] + A[idx2(i + 1, j, n)]);
}
