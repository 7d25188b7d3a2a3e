/* stencil_naive (family stencil): one 2-D 5-point Jacobi step on an N x N float grid,
 * out[y][x] = 0.2 * (in[y][x] + in[y-1][x] + in[y+1][x] + in[y][x-1] + in[y][x+1]) for the
 * interior points (1 <= x, y <= N-2); the boundary of out is left at 0. Reference variant.
 *
 * What it is: one thread per point, 32x8 blocks, all 5 operands loaded from global memory. Each
 * warp's loads are coalesced (the x-1 / x+1 ones misaligned by one float: 5 sectors per
 * request); every input element is requested 5 times and the reuse is left to L1/L2.
 *
 * Expected effect: on an H100 the L1 catches most of the reuse, so this is already near the
 * memory time (read + write 64 MB each at N = 4096, ~45-60 us); the shared-memory versions
 * should gain little or even lose (a model that charges 5 DRAM loads per point would rank it far
 * too slow). The family requires N to be a multiple of 32.
 *
 * Measured on an H200 (carve bench --verify, median of 20, default size, 2026-11-22):
 * 0.0652 ms, 2nd of 4 in the family (1.41x the fastest).
 */
#ifndef N
#define N 4096
#endif
#define BX 32
#define BY 8

#pragma carve launch stencil_naive grid(N/BX, N/BY) block(BX, BY)
#pragma carve arg in = float[N*N] : random(1)
#pragma carve arg out = float[N*N] : zeros out
#pragma carve arg n = N
#pragma carve tol rel(1e-6)
#pragma carve work flops(5.0*(N-2)*(N-2)) bytes(2.0*N*N*4)
#pragma carve baseline copy(N*N*4)
__global__ void stencil_naive(const float *in, float *out, int n)
{
    int x = blockIdx.x * BX + threadIdx.x;
    int y = blockIdx.y * BY + threadIdx.y;
    if (x >= 1 && x < n - 1 && y >= 1 && y < n - 1)
        out[y * n + x] = 0.2f * (in[y * n + x] + in[(y - 1) * n + x] + in[(y + 1) * n + x]
                                 + in[y * n + x - 1] + in[y * n + x + 1]);
}
