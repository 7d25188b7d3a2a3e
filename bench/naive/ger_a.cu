/* ger (A += alpha x y^T), spelling a: 2-D threads, macros. */
#ifndef N
#define N 2048
#endif
#pragma carve launch ger grid((N+31)/32, (N+7)/8) block(32, 8)
#pragma carve arg A = float[N*N] : random(1) out
#pragma carve arg x = float[N] : random(2)
#pragma carve arg y = float[N] : random(3)
#pragma carve arg alpha = 1.5
#pragma carve tol rel(1e-5)
#pragma carve work flops(2.0*N*N) bytes(8.0*N*N)
#pragma carve baseline copy(N*N*4)
__global__ void ger(float *A, float *x, float *y, float alpha)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    if (i < N && j < N)
        A[i * N + j] += alpha * x[i] * y[j];
}
