/* tmv: naive transposed matrix-vector multiplication, y = A^T * x (A is H x W, row-major;
 * x has H elements, y has W).
 *
 * Source: Yang et al., PLDI 2010, Table 1 ("tmv", 1k x 1k to 4k x 4k); the release's naive
 * kernel is `sum += A(i, idx) * B[i]`.
 *
 * Naive because: one thread per output element, global memory only. The column walk A[i][idx]
 * is already coalesced along idx, but x[i] is a broadcast re-read by every thread, each thread
 * computes a single dot product (no thread merge / register reuse of x[i]), and the long
 * sequential loop gives little memory-level parallelism per thread. */
#ifndef H
#define H 4096
#endif
#ifndef W
#define W 4096
#endif

#pragma carve launch tmv grid((W+127)/128) block(128)
#pragma carve arg A = float[H*W] : random(1)
#pragma carve arg x = float[H] : random(2)
#pragma carve arg y = float[W] : zeros out
#pragma carve arg h = H
#pragma carve arg w = W
#pragma carve tol rel(1e-5)
#pragma carve work flops(2.0*H*W) bytes(4.0*(H*W + W + H))
#pragma carve baseline sgemv_t(H, W)
__global__ void tmv(const float *A, const float *x, float *y, int h, int w)
{
    int idx = blockIdx.x * blockDim.x + threadIdx.x;   /* column of A */
    if (idx < w) {
        float sum = 0.0f;
        for (int i = 0; i < h; i++)
            sum += A[i * w + idx] * x[i];
        y[idx] = sum;
    }
}
