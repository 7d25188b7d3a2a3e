/* tp_coalesced_read_only (family tp): C = A^T, naive, but the other way round from tp_naive:
 * reads coalesced, writes strided.
 *
 * What changes from tp_naive: each thread reads A[y][x] with x = threadIdx.x fastest (a warp
 * reads one 128-B row segment) and writes C[x][y], strided by N floats (32 sectors per store
 * request, each a partial-sector write of 4 useful bytes out of 32). Same 32x8 blocks, 4 elements
 * per thread.
 *
 * Expected effect: about as slow as tp_naive or slower: strided stores cannot be served from
 * L1 and each one is a read-modify-write of a 32-B sector in L2; on GPUs with a write-back L2
 * large enough to merge the partial sectors (H100: 50 MB) the penalty shrinks. Which of the two
 * naive orders wins is exactly the question (Ruetsch: writes coalesced is better on older GPUs).
 * The family requires N to be a multiple of 32.
 *
 * Measured on an H200 (carve bench --verify, median of 20, default size, 2026-11-22):
 * 0.2734 ms, 5th of 5 in the family (6.64x the fastest).
 */
#ifndef N
#define N 4096
#endif
#define TILE 32
#define ROWS 8

#pragma carve launch tp_coalesced_read_only grid(N/TILE, N/TILE) block(TILE, ROWS)
#pragma carve arg A = float[N*N] : random(1)
#pragma carve arg C = float[N*N] : zeros out
#pragma carve arg n = N
#pragma carve tol rel(0)
#pragma carve work bytes(2.0*N*N*4)
#pragma carve baseline copy(N*N*4)
__global__ void tp_coalesced_read_only(const float *A, float *C, int n)
{
    int x = blockIdx.x * TILE + threadIdx.x;    /* column of A = row of C */
    int y = blockIdx.y * TILE + threadIdx.y;    /* row of A = column of C */
    for (int j = 0; j < TILE; j += ROWS)
        C[x * n + y + j] = A[(y + j) * n + x];
}
