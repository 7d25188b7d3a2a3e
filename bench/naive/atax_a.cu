/* atax (y = A^T (A x)), spelling a: PolyBench's two kernels, tmp and y accumulated in global memory. */
#ifndef N
#define N 4096
#endif
#pragma carve launch atax1 grid((N+255)/256) block(256)
#pragma carve arg A = float[N*N] : random(1)
#pragma carve arg x = float[N] : random(2)
#pragma carve arg tmp = float[N] : zeros out
#pragma carve tol rel(1e-4)
#pragma carve work flops(2.0*N*N) bytes(4.0*(N*N + 2.0*N))
#pragma carve baseline sgemv(N, N)
#pragma carve launch atax2 grid((N+255)/256) block(256)
#pragma carve arg A = float[N*N] : random(1)
#pragma carve arg y = float[N] : zeros out
#pragma carve arg tmp = float[N] : random(3)
#pragma carve tol rel(1e-4)
#pragma carve work flops(2.0*N*N) bytes(4.0*(N*N + 2.0*N))
#pragma carve baseline sgemv_t(N, N)
__global__ void atax1(float *A, float *x, float *tmp)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < N) {
        tmp[i] = 0;
        int j;
        for (j = 0; j < N; j++)
            tmp[i] += A[i * N + j] * x[j];
    }
}
__global__ void atax2(float *A, float *y, float *tmp)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    if (j < N) {
        y[j] = 0;
        int i;
        for (i = 0; i < N; i++)
            y[j] += A[i * N + j] * tmp[i];
    }
}
