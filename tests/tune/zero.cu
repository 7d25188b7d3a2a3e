/* A kernel whose outputs are zeros whatever its launch: the fake GPU of tests/tune_driver.sh
 * (tests/tune/fake-nvcc) writes zeros as every variant's outputs, so its variants verify on the
 * "GPU" and the timing driver's every path can be tested without one. */
#ifndef N
#define N 4096
#endif
#pragma carve launch zero grid((N + 255) / 256) block(256)
#pragma carve arg c = float[N] : random(3) out
#pragma carve arg n = N
__global__ void zero(float *c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = 0.0f;
}
