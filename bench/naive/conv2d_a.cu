/* 2-D convolution (3x3, PolyBench's weights), spelling a: one thread per interior output. */
#ifndef N
#define N 2048
#endif
#pragma carve launch conv2d grid((N+31)/32, (N+7)/8) block(32, 8)
#pragma carve arg A = float[N*N] : random(1)
#pragma carve arg B = float[N*N] : zeros out
#pragma carve tol rel(1e-5)
#pragma carve work flops(17.0*N*N) bytes(8.0*N*N)
#pragma carve baseline copy(N*N*4)
__global__ void conv2d(float *A, float *B)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    float c11 = +0.2f, c21 = +0.5f, c31 = -0.8f;
    float c12 = -0.3f, c22 = +0.6f, c32 = -0.9f;
    float c13 = +0.4f, c23 = +0.7f, c33 = +0.10f;
    if ((i < N - 1) && (j < N - 1) && (i > 0) && (j > 0)) {
        B[i * N + j] = c11 * A[(i - 1) * N + (j - 1)] + c21 * A[(i - 1) * N + j] + c31 * A[(i - 1) * N + (j + 1)]
                     + c12 * A[i * N + (j - 1)] + c22 * A[i * N + j] + c32 * A[i * N + (j + 1)]
                     + c13 * A[(i + 1) * N + (j - 1)] + c23 * A[(i + 1) * N + j] + c33 * A[(i + 1) * N + (j + 1)];
    }
}
