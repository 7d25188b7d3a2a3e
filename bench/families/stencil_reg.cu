/* stencil_reg (family stencil): the 5-point Jacobi step (see stencil_naive) with each thread
 * computing 4 consecutive points in y, reusing the vertical neighbours in registers.
 *
 * What changes from stencil_naive: 32x8 blocks cover 32x32 points; a thread walks rows y0 ..
 * y0+3 of its column, keeping the rows above/current/below in 3 registers that roll down: 6
 * centre-column loads + 8 left/right loads for 4 points (3.5 loads per point instead of 5), no
 * shared memory, no barrier, a quarter as many threads, 4 independent stores per thread.
 *
 * Expected effect: slightly faster than stencil_naive (fewer L1 requests and index instructions,
 * more independent loads in flight per thread), the best or tied-best of the family; all four
 * are close to the memory time on an H100. Requires N to be a multiple of 32.
 *
 * Measured on an H200 (carve bench --verify, median of 20, default size, 2026-11-22):
 * 0.0463 ms, 1st of 4 in the family (1.00x the fastest).
 */
#ifndef N
#define N 4096
#endif
#define BX 32
#define BY 8
#define PER 4

#pragma carve launch stencil_reg grid(N/BX, N/(BY*PER)) block(BX, BY)
#pragma carve arg in = float[N*N] : random(1)
#pragma carve arg out = float[N*N] : zeros out
#pragma carve arg n = N
#pragma carve tol rel(1e-6)
#pragma carve work flops(5.0*(N-2)*(N-2)) bytes(2.0*N*N*4)
#pragma carve baseline copy(N*N*4)
__global__ void stencil_reg(const float *in, float *out, int n)
{
    int x = blockIdx.x * BX + threadIdx.x;
    int y0 = (blockIdx.y * BY + threadIdx.y) * PER;
    if (x < 1 || x >= n - 1)
        return;
    float up = (y0 > 0) ? in[(y0 - 1) * n + x] : 0.0f;
    float c = in[y0 * n + x];
#pragma unroll
    for (int k = 0; k < PER; k++) {
        int y = y0 + k;
        float down = (y + 1 < n) ? in[(y + 1) * n + x] : 0.0f;
        if (y >= 1 && y < n - 1)
            out[y * n + x] = 0.2f * (c + up + down + in[y * n + x - 1] + in[y * n + x + 1]);
        up = c;
        c = down;
    }
}
