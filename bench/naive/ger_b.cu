/* ger, spelling b: 1-D threads over the flattened matrix, an early return. */
#ifndef N
#define N 2048
#endif
#pragma carve launch ger_flat grid((N*N+255)/256) block(256)
#pragma carve arg A = float[N*N] : random(1) out
#pragma carve arg x = float[N] : random(2)
#pragma carve arg y = float[N] : random(3)
#pragma carve arg n = N
#pragma carve arg alpha = 1.5
#pragma carve tol rel(1e-5)
#pragma carve work flops(2.0*N*N) bytes(8.0*N*N)
#pragma carve baseline copy(N*N*4)
__global__ void ger_flat(float *A, const float *x, const float *y, int n, float alpha)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= n * n) return;
    int i = t / n, j = t % n;
    A[t] = A[t] + alpha * x[i] * y[j];
}
