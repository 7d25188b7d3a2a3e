/* stencil_shared (family stencil): the 5-point Jacobi step (see stencil_naive) through a 16x16
 * shared-memory tile with a one-point halo.
 *
 * What changes from stencil_naive: 16x16 blocks; every thread loads its point into s[ty+1][tx+1],
 * the edge threads of the block also load the halo row/column beyond them (4 x 16 extra loads,
 * the halo columns are single-lane loads, one sector each), one barrier, then the 5 operands
 * come from shared memory. Global loads per point fall from 5 to 1.25; a warp covers 2 rows of
 * 16 floats (two 64-B segments, 4 sectors per request, all bytes used). The tile's row pitch
 * of 18 words makes a warp's two rows overlap in 2 banks: 2-way bank conflicts on the shared
 * accesses (stencil_shared32 has one row per warp and none).
 *
 * Expected effect: about the same as stencil_naive or slightly slower on an H100 (L1 already gave
 * the reuse; the halo loads are divergent and the barrier adds latency). T = 16 requires N to be
 * a multiple of 16 (32 for the family).
 *
 * Measured on an H200 (carve bench --verify, median of 20, default size, 2026-11-22):
 * 0.0875 ms, 4th of 4 in the family (1.89x the fastest).
 */
#ifndef N
#define N 4096
#endif
#define T 16

#pragma carve launch stencil_shared grid(N/T, N/T) block(T, T)
#pragma carve arg in = float[N*N] : random(1)
#pragma carve arg out = float[N*N] : zeros out
#pragma carve arg n = N
#pragma carve tol rel(1e-6)
#pragma carve work flops(5.0*(N-2)*(N-2)) bytes(2.0*N*N*4)
#pragma carve baseline copy(N*N*4)
__global__ void stencil_shared(const float *in, float *out, int n)
{
    __shared__ float s[T + 2][T + 2];
    int tx = threadIdx.x, ty = threadIdx.y;
    int x = blockIdx.x * T + tx;
    int y = blockIdx.y * T + ty;
    s[ty + 1][tx + 1] = in[y * n + x];
    if (tx == 0 && x > 0)           s[ty + 1][0] = in[y * n + x - 1];
    if (tx == T - 1 && x < n - 1)   s[ty + 1][T + 1] = in[y * n + x + 1];
    if (ty == 0 && y > 0)           s[0][tx + 1] = in[(y - 1) * n + x];
    if (ty == T - 1 && y < n - 1)   s[T + 1][tx + 1] = in[(y + 1) * n + x];
    __syncthreads();
    if (x >= 1 && x < n - 1 && y >= 1 && y < n - 1)
        out[y * n + x] = 0.2f * (s[ty + 1][tx + 1] + s[ty][tx + 1] + s[ty + 2][tx + 1]
                                 + s[ty + 1][tx] + s[ty + 1][tx + 2]);
}
