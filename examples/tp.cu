/* tp: naive matrix transpose, C = A^T (A is H x W, C is W x H, both row-major).
 *
 * Source: Yang et al., PLDI 2010, Table 1 ("tp", 1k x 1k to 8k x 8k; no flops, reported as
 * effective bandwidth); the release's naive kernel is `C(idy, idx) = A(idx, idy)`.
 *
 * Naive because: one thread per element, global memory only. The writes to C are coalesced but
 * the reads of A walk a column (consecutive threads read addresses W floats apart), so every
 * read is uncoalesced; the fix is a padded 16x17 (32x33 today) shared tile. With a power-of-two
 * pitch, concurrently running blocks also hit the same memory partition (partition camping,
 * removed in the paper by diagonal block reordering). */
#ifndef H
#define H 4096
#endif
#ifndef W
#define W 4096
#endif

#pragma carve launch tp grid((H+15)/16, (W+15)/16) block(16, 16)
#pragma carve arg A = float[H*W] : random(1)
#pragma carve arg C = float[W*H] : zeros out
#pragma carve arg h = H
#pragma carve arg w = W
#pragma carve tol rel(0)
#pragma carve work bytes(2.0*H*W*4)
#pragma carve baseline copy(H*W*4)
__global__ void tp(const float *A, float *C, int h, int w)
{
    int idx = blockIdx.x * blockDim.x + threadIdx.x;   /* column of C = row of A */
    int idy = blockIdx.y * blockDim.y + threadIdx.y;   /* row of C = column of A */
    if (idx < h && idy < w)
        C[idy * h + idx] = A[idx * w + idy];
}
