/* mv_warp (holdout family mv): y = A x, one warp per row; the lanes stride over the row
 * (coalesced reads of A) and add their partial sums with warp shuffles. */
#ifndef H
#define H 4096
#endif
#ifndef W
#define W 4096
#endif
#pragma carve launch mv_warp grid(H / 4) block(128)
#pragma carve arg A = float[H*W] : random(1)
#pragma carve arg x = float[W] : random(2)
#pragma carve arg y = float[H] : zeros out
#pragma carve arg h = H
#pragma carve arg w = W
#pragma carve tol rel(1e-4)
#pragma carve work flops(2.0*H*W) bytes(4.0*(H*W + W + H))
__global__ void mv_warp(const float *A, const float *x, float *y, int h, int w)
{
    int row = blockIdx.x * 4 + threadIdx.x / 32;
    int lane = threadIdx.x % 32;
    float s = 0.0f;
    for (int j = lane; j < w; j += 32)
        s += A[row * w + j] * x[j];
    for (int off = 16; off > 0; off /= 2)
        s += __shfl_down_sync(0xffffffff, s, off);
    if (lane == 0)
        y[row] = s;
}
