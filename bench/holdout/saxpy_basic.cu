/* saxpy_basic (holdout family saxpy): y = a x + y, one element per thread. */
#ifndef N
#define N (1 << 24)
#endif
#pragma carve launch saxpy_basic grid(N / 256) block(256)
#pragma carve arg x = float[N] : random(1)
#pragma carve arg y = float[N] : random(2) out
#pragma carve arg a = 2.5f
#pragma carve arg n = N
#pragma carve tol rel(1e-6)
#pragma carve work flops(2.0*N) bytes(12.0*N)
__global__ void saxpy_basic(const float *x, float *y, float a, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = a * x[i] + y[i];
}
