/* mv_block (holdout family mv): y = A x, one block of 128 threads per row, coalesced reads of
 * A and a shared-memory tree reduction. */
#ifndef H
#define H 4096
#endif
#ifndef W
#define W 4096
#endif
#pragma carve launch mv_block grid(H) block(128)
#pragma carve arg A = float[H*W] : random(1)
#pragma carve arg x = float[W] : random(2)
#pragma carve arg y = float[H] : zeros out
#pragma carve arg h = H
#pragma carve arg w = W
#pragma carve tol rel(1e-4)
#pragma carve work flops(2.0*H*W) bytes(4.0*(H*W + W + H))
__global__ void mv_block(const float *A, const float *x, float *y, int h, int w)
{
    __shared__ float s[128];
    int row = blockIdx.x;
    int t = threadIdx.x;
    float v = 0.0f;
    for (int j = t; j < w; j += 128)
        v += A[row * w + j] * x[j];
    s[t] = v;
    __syncthreads();
    for (int d = 64; d > 0; d /= 2) {
        if (t < d)
            s[t] += s[t + d];
        __syncthreads();
    }
    if (t == 0)
        y[row] = s[0];
}
