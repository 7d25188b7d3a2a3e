// expect: tile on mm: not applicable: under a condition
/* tile pass regression (review, 2026-11-24) */
#ifndef N
#define N 64
#endif
#pragma carve launch mm grid((N+15)/16, (N+15)/16) block(16, 16)
#pragma carve arg A = int[N*N] : random(1)
#pragma carve arg B = int[N*N] : random(2, 1, 100)
#pragma carve arg C = int[N*N] : zeros out
#pragma carve arg n = N
__global__ void mm(const int *A, const int *B, int *C, int n)
{
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    if (row < n && col < n) {
        int s = 0;
        for (int k = 0; k < n; k++)
            s += A[row*n+k] / B[k*n+col];
        C[row*n+col] = s;
    }
}
