/* saxpy_stride (holdout family saxpy): y = a x + y with a grid-stride loop over four blocks
 * per SM of an H100/H200 (528 blocks of 256 threads). */
#ifndef N
#define N (1 << 24)
#endif
#pragma carve launch saxpy_stride grid(528) block(256)
#pragma carve arg x = float[N] : random(1)
#pragma carve arg y = float[N] : random(2) out
#pragma carve arg a = 2.5f
#pragma carve arg n = N
#pragma carve tol rel(1e-6)
#pragma carve work flops(2.0*N) bytes(12.0*N)
__global__ void saxpy_stride(const float *x, float *y, float a, int n)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        y[i] = a * x[i] + y[i];
}
