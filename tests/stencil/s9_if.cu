/* 2-D 9-point box stencil, the guard an if-block, the row length a macro, 32x8 blocks. */
#ifndef N
#define N 64
#endif
#pragma carve launch s9 grid((N+31)/32, (N+7)/8) block(32, 8)
#pragma carve arg A = float[N*N] : random(1)
#pragma carve arg B = float[N*N] : zeros out
#pragma carve tol rel(1e-5)
__global__ void s9(float *A, float *B)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    if (i > 0 && j > 0 && i < N - 1 && j < N - 1) {
        float s = 0.0f;
        s += A[(i - 1) * N + j - 1] + A[(i - 1) * N + j] + A[(i - 1) * N + j + 1];
        s += A[i * N + j - 1] + 2.0f * A[i * N + j] + A[i * N + j + 1];
        s += A[(i + 1) * N + j - 1] + A[(i + 1) * N + j] + A[(i + 1) * N + j + 1];
        B[i * N + j] = s / 10.0f;
    }
}
