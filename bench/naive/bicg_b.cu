/* bicg, spelling b: pointer rows, register sums declared first, early returns. */
#ifndef N
#define N 4096
#endif
#pragma carve launch bicg1 grid((N+127)/128) block(128)
#pragma carve arg A = float[N*N] : random(1)
#pragma carve arg r = float[N] : random(2)
#pragma carve arg s = float[N] : zeros out
#pragma carve arg n = N
#pragma carve tol rel(1e-4)
#pragma carve work flops(2.0*N*N) bytes(4.0*(N*N + 2.0*N))
#pragma carve baseline sgemv_t(N, N)
#pragma carve launch bicg2 grid((N+127)/128) block(128)
#pragma carve arg A = float[N*N] : random(1)
#pragma carve arg p = float[N] : random(3)
#pragma carve arg q = float[N] : zeros out
#pragma carve arg n = N
#pragma carve tol rel(1e-4)
#pragma carve work flops(2.0*N*N) bytes(4.0*(N*N + 2.0*N))
#pragma carve baseline sgemv(N, N)
__global__ void bicg1(const float *A, const float *r, float *s, int n)
{
    float acc = 0.0f;
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    if (col >= n) return;
    for (int row = 0; row < n; row++)
        acc += r[row] * A[row * n + col];
    s[col] = acc;
}
__global__ void bicg2(const float *A, const float *p, float *q, int n)
{
    float acc = 0.0f;
    int row = blockIdx.x * blockDim.x + threadIdx.x;
    if (row >= n) return;
    const float *Arow = &A[row * n];
    for (int col = 0; col < n; col++)
        acc += Arow[col] * p[col];
    q[row] = acc;
}
