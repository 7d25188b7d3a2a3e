/* stencil_shared32 (family stencil): the 5-point Jacobi step (see stencil_naive) through a 32x8
 * shared-memory tile with a one-point halo.
 *
 * What changes from stencil_shared: 32x8 blocks, tile s[10][34]: a warp is one full 128-B row,
 * so the main and the top/bottom halo loads are whole-line coalesced; the halo is 2 x 32 + 2 x 8
 * = 80 points per 256 (1.31 loads per point, vs 1.25 for 16x16) but the left/right halo columns
 * are now only 16 single-lane loads per block instead of 32.
 *
 * Expected effect: a little faster than stencil_shared (full-line rows), about on par with
 * stencil_naive. Requires N to be a multiple of 32.
 *
 * Measured on an H200 (carve bench --verify, median of 20, default size, 2026-11-22):
 * 0.0718 ms, 3rd of 4 in the family (1.55x the fastest).
 */
#ifndef N
#define N 4096
#endif
#define BX 32
#define BY 8

#pragma carve launch stencil_shared32 grid(N/BX, N/BY) block(BX, BY)
#pragma carve arg in = float[N*N] : random(1)
#pragma carve arg out = float[N*N] : zeros out
#pragma carve arg n = N
#pragma carve tol rel(1e-6)
#pragma carve work flops(5.0*(N-2)*(N-2)) bytes(2.0*N*N*4)
#pragma carve baseline copy(N*N*4)
__global__ void stencil_shared32(const float *in, float *out, int n)
{
    __shared__ float s[BY + 2][BX + 2];
    int tx = threadIdx.x, ty = threadIdx.y;
    int x = blockIdx.x * BX + tx;
    int y = blockIdx.y * BY + ty;
    s[ty + 1][tx + 1] = in[y * n + x];
    if (tx == 0 && x > 0)            s[ty + 1][0] = in[y * n + x - 1];
    if (tx == BX - 1 && x < n - 1)   s[ty + 1][BX + 1] = in[y * n + x + 1];
    if (ty == 0 && y > 0)            s[0][tx + 1] = in[(y - 1) * n + x];
    if (ty == BY - 1 && y < n - 1)   s[BY + 1][tx + 1] = in[(y + 1) * n + x];
    __syncthreads();
    if (x >= 1 && x < n - 1 && y >= 1 && y < n - 1)
        out[y * n + x] = 0.2f * (s[ty + 1][tx + 1] + s[ty][tx + 1] + s[ty + 2][tx + 1]
                                 + s[ty + 1][tx] + s[ty + 1][tx + 2]);
}
