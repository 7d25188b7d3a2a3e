/* a 3x3 filter convolution whose offset base is declared inside the guarded block: the tile's
 * origin is computed after that declaration, from the tiled copy's own variable (a first version
 * read the original's, which the copy never assigns: verification rejected it, a fault at
 * element -68). */
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
    if (r >= 1 && c >= 1 && r < N - 1 && c < N - 1) {
    size_t o = r * N + c;
    res[o] = f[0] * img[o - N - 1] + f[1] * img[o - N] + f[2] * img[o - N + 1]
           + f[3] * img[o - 1]     + f[4] * img[o]     + f[5] * img[o + 1]
           + f[6] * img[o + N - 1] + f[7] * img[o + N] + f[8] * img[o + N + 1];
    }
}
