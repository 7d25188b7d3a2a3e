// expect: tile on mm: applied
/* tile pass regression (review, 2026-11-24; since 2026-11-27 an unsigned counter is tiled in a
 * signed 64-bit copy: a k range of 4, shorter than the tile step, must stay exact) */
#ifndef N
#define N 64
#endif
#define K 4
#pragma carve launch mm grid((N+15)/16, (N+15)/16) block(16, 16)
#pragma carve arg A = float[N*K] : random(1)
#pragma carve arg B = float[K*N] : random(2)
#pragma carve arg C = float[N*N] : zeros out
#pragma carve arg n = N
#pragma carve arg kd = K
#pragma carve tol rel(1e-5)
__global__ void mm(const float *A, const float *B, float *C, int n, unsigned kd)
{
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    if (row < n && col < n) {
        float s = 0.0f;
        for (unsigned k = 0; k < kd; k++)
            s += A[row*kd+k]*B[k*n+col];
        C[row*n+col] = s;
    }
}
