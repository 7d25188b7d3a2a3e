/* atax, spelling b: register accumulators, while loops, early returns, tile constants. */
#ifndef N
#define N 4096
#endif
#define THREADS 128
#pragma carve launch atax1 grid((N+THREADS-1)/THREADS) block(THREADS)
#pragma carve arg A = float[N*N] : random(1)
#pragma carve arg x = float[N] : random(2)
#pragma carve arg tmp = float[N] : zeros out
#pragma carve arg n = N
#pragma carve tol rel(1e-4)
#pragma carve work flops(2.0*N*N) bytes(4.0*(N*N + 2.0*N))
#pragma carve baseline sgemv(N, N)
#pragma carve launch atax2 grid((N+THREADS-1)/THREADS) block(THREADS)
#pragma carve arg A = float[N*N] : random(1)
#pragma carve arg y = float[N] : zeros out
#pragma carve arg tmp = float[N] : random(3)
#pragma carve arg n = N
#pragma carve tol rel(1e-4)
#pragma carve work flops(2.0*N*N) bytes(4.0*(N*N + 2.0*N))
#pragma carve baseline sgemv_t(N, N)
__global__ void atax1(const float *A, const float *x, float *tmp, int n)
{
    int i = blockIdx.x * THREADS + threadIdx.x;
    if (i >= n) return;
    float s = 0.0f;
    int j = 0;
    while (j < n) {
        s += A[i * n + j] * x[j];
        j++;
    }
    tmp[i] = s;
}
__global__ void atax2(const float *A, float *y, const float *tmp, int n)
{
    int j = blockIdx.x * THREADS + threadIdx.x;
    if (j >= n) return;
    float s = 0.0f;
    for (int i = 0; i <= n - 1; i++)
        s += A[i * n + j] * tmp[i];
    y[j] = s;
}
