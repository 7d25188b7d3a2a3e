/* vv: naive vector-vector multiplication as a rank-1 update (BLAS sger with alpha = 1),
 * C += a * b^T (C is H x W, row-major, updated in place; a has H elements, b has W).
 *
 * Source: Yang et al., PLDI 2010, Table 1 ("vv", 1k to 4k); the release's naive kernel is
 * `C(idy, idx) += A[idy] * B[idx]`.
 *
 * Naive because: one thread per output element, global memory only. a[idy] is the same address
 * for a whole row of threads and b[idx] for a whole column, and both are re-loaded by every
 * thread instead of being kept in registers across several outputs (thread merge). The kernel
 * is bandwidth-bound on C: one read-modify-write per multiply-add. */
#ifndef H
#define H 4096
#endif
#ifndef W
#define W 4096
#endif

#pragma carve launch vv grid((W+15)/16, (H+15)/16) block(16, 16)
#pragma carve arg a = float[H] : random(1)
#pragma carve arg b = float[W] : random(2)
#pragma carve arg C = float[H*W] : random(3) out
#pragma carve arg h = H
#pragma carve arg w = W
#pragma carve tol rel(1e-5)
#pragma carve work flops(2.0*H*W) bytes(4.0*(2.0*H*W + H + W))
#pragma carve baseline sger(H, W)
__global__ void vv(const float *a, const float *b, float *C, int h, int w)
{
    int idx = blockIdx.x * blockDim.x + threadIdx.x;   /* column of C */
    int idy = blockIdx.y * blockDim.y + threadIdx.y;   /* row of C */
    if (idx < w && idy < h)
        C[idy * w + idx] += a[idy] * b[idx];
}
