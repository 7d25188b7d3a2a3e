/* mv: naive matrix-vector multiplication, y = A * x (A is H x W, row-major; x has W elements,
 * y has H).
 *
 * Source: Yang et al., PLDI 2010, Fig. 2b and Table 1 ("mv", 1k x 1k to 4k x 4k).
 *
 * Naive because: one thread per output element, global memory only. Thread idx walks row idx
 * of A, so at each step the threads of a warp read addresses W floats apart: the access to A is
 * uncoalesced (the paper stages it through a 16x17 shared tile), and with a power-of-two W all
 * blocks hit the same memory partition (partition camping, Yang §3.7). x[i] is a broadcast
 * re-read by every thread. */
#ifndef H
#define H 4096
#endif
#ifndef W
#define W 4096
#endif

#pragma carve launch mv grid((H+127)/128) block(128)
#pragma carve arg A = float[H*W] : random(1)
#pragma carve arg x = float[W] : random(2)
#pragma carve arg y = float[H] : zeros out
#pragma carve arg h = H
#pragma carve arg w = W
#pragma carve tol rel(1e-5)
#pragma carve work flops(2.0*H*W) bytes(4.0*(H*W + W + H))
#pragma carve baseline sgemv(H, W)
__global__ void mv(const float *A, const float *x, float *y, int h, int w)
{
    int idx = blockIdx.x * blockDim.x + threadIdx.x;   /* row of A */
    if (idx < h) {
        float sum = 0.0f;
        for (int i = 0; i < w; i++)
            sum += A[idx * w + i] * x[i];
        y[idx] = sum;
    }
}
