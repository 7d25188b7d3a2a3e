/* mv_xshared (holdout family mv): y = A x, one thread per row as in the naive kernel, with x
 * staged through shared memory in tiles of 128; the reads of A stay uncoalesced. */
#ifndef H
#define H 4096
#endif
#ifndef W
#define W 4096
#endif
#pragma carve launch mv_xshared grid(H / 128) block(128)
#pragma carve arg A = float[H*W] : random(1)
#pragma carve arg x = float[W] : random(2)
#pragma carve arg y = float[H] : zeros out
#pragma carve arg h = H
#pragma carve arg w = W
#pragma carve tol rel(1e-4)
#pragma carve work flops(2.0*H*W) bytes(4.0*(H*W + W + H))
__global__ void mv_xshared(const float *A, const float *x, float *y, int h, int w)
{
    __shared__ float xs[128];
    int row = blockIdx.x * 128 + threadIdx.x;
    float s = 0.0f;
    for (int j0 = 0; j0 < w; j0 += 128) {
        xs[threadIdx.x] = x[j0 + threadIdx.x];
        __syncthreads();
        for (int j = 0; j < 128; j++)
            s += A[row * w + j0 + j] * xs[j];
        __syncthreads();
    }
    y[row] = s;
}
