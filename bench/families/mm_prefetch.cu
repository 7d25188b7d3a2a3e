/* mm_prefetch (family mm): mm_tile16 with register prefetching (software pipelining): the global
 * loads of the next k-tile are issued into registers before the FMAs of the current tile.
 *
 * What changes from mm_tile16: the loop stores the prefetched registers into shared memory,
 * synchronizes, issues the two global loads for tile t+16, runs the 16 FMAs from shared memory,
 * and synchronizes again; the global latency of the next tile overlaps the current tile's
 * arithmetic instead of sitting between the load and the first barrier. Same traffic, same
 * shared memory, 2 more registers.
 *
 * Expected effect: slightly faster than mm_tile16 (~1.0-1.2x); with 8 resident 256-thread blocks
 * per SM, other blocks already hide most of the load latency, so the gain is small on an H100.
 * Requires N to be a multiple of 16 (64 for the family).
 *
 * Measured on an H200 (carve bench --verify, median of 20, default size, 2026-11-22):
 * 2.1180 ms, 6th of 7 in the family (2.01x the fastest).
 */
#ifndef N
#define N 2048
#endif
#define TILE 16

#pragma carve launch mm_prefetch grid(N/TILE, N/TILE) block(TILE, TILE)
#pragma carve arg A = float[N*N] : random(1)
#pragma carve arg B = float[N*N] : random(2)
#pragma carve arg C = float[N*N] : zeros out
#pragma carve arg n = N
#pragma carve tol rel(1e-5)
#pragma carve work flops(2.0*N*N*N) bytes(3.0*N*N*4)
#pragma carve baseline sgemm(N, N, N)
__global__ void mm_prefetch(const float *A, const float *B, float *C, int n)
{
    __shared__ float As[TILE][TILE];
    __shared__ float Bs[TILE][TILE];
    int tx = threadIdx.x, ty = threadIdx.y;
    int col = blockIdx.x * TILE + tx;
    int row = blockIdx.y * TILE + ty;
    float sum = 0.0f;
    float ra = A[row * n + tx];                 /* tile 0, prefetched */
    float rb = B[ty * n + col];
    for (int t = 0; t < n; t += TILE) {
        As[ty][tx] = ra;
        Bs[ty][tx] = rb;
        __syncthreads();
        if (t + TILE < n) {                     /* prefetch tile t+16 while computing tile t */
            ra = A[row * n + t + TILE + tx];
            rb = B[(t + TILE + ty) * n + col];
        }
        for (int k = 0; k < TILE; k++)
            sum += As[ty][k] * Bs[k][tx];
        __syncthreads();
    }
    C[row * n + col] = sum;
}
