/* gemv, spelling a: y = A*x, PolyBench style (y zeroed and accumulated in global memory). */
#ifndef N
#define N 4096
#endif
#pragma carve launch gemv grid((N+255)/256) block(256)
#pragma carve arg A = float[N*N] : random(1)
#pragma carve arg x = float[N] : random(2)
#pragma carve arg y = float[N] : zeros out
#pragma carve tol rel(1e-4)
#pragma carve work flops(2.0*N*N) bytes(4.0*(N*N + 2.0*N))
#pragma carve baseline sgemv(N, N)
__global__ void gemv(float *A, float *x, float *y)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < N) {
        y[i] = 0;
        int j;
        for (j = 0; j < N; j++)
            y[i] += A[i * N + j] * x[j];
    }
}
