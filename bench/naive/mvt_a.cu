/* mvt (x1 += A y1, x2 += A^T y2), spelling a: PolyBench's kernels, x1/x2 updated in global memory. */
#ifndef N
#define N 4096
#endif
#pragma carve launch mvt1 grid((N+255)/256) block(256)
#pragma carve arg a = float[N*N] : random(1)
#pragma carve arg x1 = float[N] : random(2) out
#pragma carve arg y1 = float[N] : random(3)
#pragma carve tol rel(1e-4)
#pragma carve work flops(2.0*N*N) bytes(4.0*(N*N + 3.0*N))
#pragma carve baseline sgemv(N, N)
#pragma carve launch mvt2 grid((N+255)/256) block(256)
#pragma carve arg a = float[N*N] : random(1)
#pragma carve arg x2 = float[N] : random(4) out
#pragma carve arg y2 = float[N] : random(5)
#pragma carve tol rel(1e-4)
#pragma carve work flops(2.0*N*N) bytes(4.0*(N*N + 3.0*N))
#pragma carve baseline sgemv_t(N, N)
__global__ void mvt1(float *a, float *x1, float *y1)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < N) {
        int j;
        for (j = 0; j < N; j++)
            x1[i] += a[i * N + j] * y1[j];
    }
}
__global__ void mvt2(float *a, float *x2, float *y2)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < N) {
        int j;
        for (j = 0; j < N; j++)
            x2[i] += a[j * N + i] * y2[j];
    }
}
