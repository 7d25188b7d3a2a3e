/* 2-D 3x3 convolution with a filter array (its taps written out), size_t indices, an early
 * return, 32x4 blocks. */
#ifndef N
#define N 64
#endif
#pragma carve launch convf grid((N+31)/32, (N+3)/4) block(32, 4)
#pragma carve arg img = float[N*N] : random(1)
#pragma carve arg f = float[9] : random(2)
#pragma carve arg res = float[N*N] : zeros out
#pragma carve tol rel(1e-5)
__global__ void convf(const float *__restrict__ img, const float *__restrict__ f, float *__restrict__ res)
{
    size_t c = blockIdx.x * blockDim.x + threadIdx.x;
    size_t r = blockIdx.y * blockDim.y + threadIdx.y;
    size_t o = r * N + c;
    if (r < 1 || c < 1 || r >= N - 1 || c >= N - 1) return;
    res[o] = f[0] * img[o - N - 1] + f[1] * img[o - N] + f[2] * img[o - N + 1]
           + f[3] * img[o - 1]     + f[4] * img[o]     + f[5] * img[o + 1]
           + f[6] * img[o + N - 1] + f[7] * img[o + N] + f[8] * img[o + N + 1];
}
