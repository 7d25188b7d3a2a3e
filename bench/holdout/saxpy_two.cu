/* saxpy_two (holdout family saxpy): y = a x + y, two elements per thread, N/2 apart. */
#ifndef N
#define N (1 << 24)
#endif
#pragma carve launch saxpy_two grid(N / 512) block(256)
#pragma carve arg x = float[N] : random(1)
#pragma carve arg y = float[N] : random(2) out
#pragma carve arg a = 2.5f
#pragma carve arg n = N
#pragma carve tol rel(1e-6)
#pragma carve work flops(2.0*N) bytes(12.0*N)
__global__ void saxpy_two(const float *x, float *y, float a, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int half = n / 2;
    if (i < half) {
        y[i] = a * x[i] + y[i];
        y[i + half] = a * x[i + half] + y[i + half];
    }
}
