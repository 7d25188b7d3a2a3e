// expect: tile on mm: not applicable: under a condition
/* tile pass regression (review, 2026-11-24) */
#ifndef N
#define N 64
#endif
#pragma carve launch mm grid((N+15)/16, (N+15)/16) block(16, 16)
#pragma carve arg A = float[N*N] : random(1)
#pragma carve arg B = float[1] : random(2)
#pragma carve arg C = float[N*N] : zeros out
#pragma carve arg n = N
#pragma carve arg use_b = 0
#pragma carve tol rel(1e-5)
__global__ void mm(const float *A, const float *B, float *C, int n, int use_b)
{
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    if (row < n && col < n) {
        float s = 0.0f;
        for (int k = 0; k < n; k++)
            s += use_b ? A[row*n+k] * B[k*n+col] : A[row*n+k];
        C[row*n+col] = s;
    }
}
