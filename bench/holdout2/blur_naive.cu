/* blur_naive (holdout round 2, family blur): 3x3 box blur of a 4096 x 4096 image (interior;
 * the border is left 0), every tap read from global memory. */
#ifndef N
#define N 4096
#endif
#pragma carve launch blur_naive grid(N / 32, N / 8) block(32, 8)
#pragma carve arg in = float[N*N] : random(1)
#pragma carve arg out = float[N*N] : zeros out
#pragma carve arg n = N
#pragma carve tol rel(1e-5)
#pragma carve work flops(9.0*N*N) bytes(8.0*N*N)
__global__ void blur_naive(const float *in, float *out, int n)
{
    int x = blockIdx.x * 32 + threadIdx.x;
    int y = blockIdx.y * 8 + threadIdx.y;
    if (x < 1 || y < 1 || x >= n - 1 || y >= n - 1)
        return;
    float s = 0.0f;
    for (int dy = -1; dy <= 1; dy++)
        for (int dx = -1; dx <= 1; dx++)
            s += in[(y + dy) * n + x + dx];
    out[y * n + x] = s * (1.0f / 9.0f);
}
