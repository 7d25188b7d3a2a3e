// expect: tile on mm: applied
/* tile pass regression (review, 2026-11-24) */
#ifndef N
#define N 64
#endif
#pragma carve launch mm grid((N+15)/16, (N+15)/16) block(16, 16)
#pragma carve arg A = float[N*N] : random(1)
#pragma carve arg B = float[N*N] : random(2)
#pragma carve arg C = float[N*N] : zeros out
#pragma carve arg n = N
#pragma carve arg more = N
#pragma carve tol rel(1e-5)
__global__ void mm(const float *A, const float *B, float *C, int n, int more)
{
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    if (row < n && col < more) {
        float s = 0.0f;
        for (int k = 0; k < n; k++)
            s += A[row*n+k]*B[k*more+col];
        C[row*more+col] = s;
    }
}
