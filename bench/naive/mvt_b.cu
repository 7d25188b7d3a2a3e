/* mvt, spelling b: the update read into a register first, a `<=` bound, tile constants. */
#ifndef N
#define N 4096
#endif
#define TB 128
#pragma carve launch mvt1 grid(N/TB) block(TB)
#pragma carve arg a = float[N*N] : random(1)
#pragma carve arg x1 = float[N] : random(2) out
#pragma carve arg y1 = float[N] : random(3)
#pragma carve arg n = N
#pragma carve tol rel(1e-4)
#pragma carve work flops(2.0*N*N) bytes(4.0*(N*N + 3.0*N))
#pragma carve baseline sgemv(N, N)
#pragma carve launch mvt2 grid(N/TB) block(TB)
#pragma carve arg a = float[N*N] : random(1)
#pragma carve arg x2 = float[N] : random(4) out
#pragma carve arg y2 = float[N] : random(5)
#pragma carve arg n = N
#pragma carve tol rel(1e-4)
#pragma carve work flops(2.0*N*N) bytes(4.0*(N*N + 3.0*N))
#pragma carve baseline sgemv_t(N, N)
__global__ void mvt1(const float *a, float *x1, const float *y1, int n)
{
    int i = blockIdx.x * TB + threadIdx.x;
    if (i < n) {
        float v = x1[i];
        for (int j = 0; j <= n - 1; j++)
            v += a[i * n + j] * y1[j];
        x1[i] = v;
    }
}
__global__ void mvt2(const float *a, float *x2, const float *y2, int n)
{
    int i = blockIdx.x * TB + threadIdx.x;
    if (i < n) {
        float v = x2[i];
        for (int j = 0; j <= n - 1; j++)
            v += a[j * n + i] * y2[j];
        x2[i] = v;
    }
}
