/* bicg (s = A^T r, q = A p), spelling a: PolyBench's two kernels, accumulations in global memory. */
#ifndef N
#define N 4096
#endif
#pragma carve launch bicg1 grid((N+255)/256) block(256)
#pragma carve arg A = float[N*N] : random(1)
#pragma carve arg r = float[N] : random(2)
#pragma carve arg s = float[N] : zeros out
#pragma carve tol rel(1e-4)
#pragma carve work flops(2.0*N*N) bytes(4.0*(N*N + 2.0*N))
#pragma carve baseline sgemv_t(N, N)
#pragma carve launch bicg2 grid((N+255)/256) block(256)
#pragma carve arg A = float[N*N] : random(1)
#pragma carve arg p = float[N] : random(3)
#pragma carve arg q = float[N] : zeros out
#pragma carve tol rel(1e-4)
#pragma carve work flops(2.0*N*N) bytes(4.0*(N*N + 2.0*N))
#pragma carve baseline sgemv(N, N)
__global__ void bicg1(float *A, float *r, float *s)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    if (j < N) {
        s[j] = 0.0f;
        int i;
        for (i = 0; i < N; i++)
            s[j] += r[i] * A[i * N + j];
    }
}
__global__ void bicg2(float *A, float *p, float *q)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < N) {
        q[i] = 0.0f;
        int j;
        for (j = 0; j < N; j++)
            q[i] += A[i * N + j] * p[j];
    }
}
