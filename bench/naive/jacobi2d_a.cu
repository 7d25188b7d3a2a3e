/* Jacobi 2-D step, spelling a: PolyBench's 5-point average. */
#ifndef N
#define N 2048
#endif
#pragma carve launch jacobi2d grid((N+31)/32, (N+7)/8) block(32, 8)
#pragma carve arg A = float[N*N] : random(1)
#pragma carve arg B = float[N*N] : zeros out
#pragma carve tol rel(1e-5)
#pragma carve work flops(5.0*N*N) bytes(8.0*N*N)
#pragma carve baseline copy(N*N*4)
__global__ void jacobi2d(float *A, float *B)
{
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    if ((i >= 1) && (i < (N - 1)) && (j >= 1) && (j < (N - 1)))
        B[i * N + j] = 0.2f * (A[i * N + j] + A[i * N + (j - 1)] + A[i * N + (1 + j)] + A[(1 + i) * N + j] + A[(i - 1) * N + j]);
}
