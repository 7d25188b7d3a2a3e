// expect: canon writes the tile constant of `1 + blockIdx.y * 8 + threadIdx.y` (an interior
// offset, bench/holdout4 DIAGNOSIS §5) as blockDim.y, and stencil then merges rows
#ifndef N
#define N 130
#endif
#pragma carve launch interior grid((N-2+31)/32, (N-2+7)/8) block(32, 8)
#pragma carve arg A = float[N*N] : random(1)
#pragma carve arg B = float[N*N] : zeros out
#pragma carve arg n = N
__global__ void interior(const float *A, float *B, int n)
{
    int j = 1 + blockIdx.x * 32 + threadIdx.x;
    int i = 1 + blockIdx.y * 8 + threadIdx.y;
    if (i < n - 1 && j < n - 1)
        B[i * n + j] = 0.25f * (A[(i - 1) * n + j] + A[(i + 1) * n + j] + A[i * n + j - 1] + A[i * n + j + 1]);
}
