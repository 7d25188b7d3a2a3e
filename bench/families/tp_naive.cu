/* tp_naive (family tp): C = A^T for an N x N float matrix (row-major). Reference variant.
 *
 * What it is: the output-oriented naive transpose (Yang et al.'s tp, Ruetsch and Micikevicius's
 * "naive"): 32x8 blocks, each thread writes 4 elements of a 32x32 tile of C (rows j, j+8, j+16,
 * j+24), C[y][x] = A[x][y] with x = threadIdx.x fastest. The writes to C are coalesced (one 128-B
 * row segment per warp); the reads of A are strided by N floats, so every lane of a warp touches
 * its own 32-B sector (32 sectors per request, 8x the useful bytes fetched into L1/L2).
 *
 * Expected effect: slow, with strided READS (which L1/L2 can partly absorb: neighbouring warps
 * reuse the fetched sectors); about 2-3x the copy time. Compare tp_coalesced_read_only, which
 * has the strided side on the writes. The family requires N to be a multiple of 32.
 *
 * Measured on an H200 (carve bench --verify, median of 20, default size, 2026-11-22):
 * 0.0782 ms, 3rd of 5 in the family (1.90x the fastest).
 */
#ifndef N
#define N 4096
#endif
#define TILE 32
#define ROWS 8

#pragma carve launch tp_naive grid(N/TILE, N/TILE) block(TILE, ROWS)
#pragma carve arg A = float[N*N] : random(1)
#pragma carve arg C = float[N*N] : zeros out
#pragma carve arg n = N
#pragma carve tol rel(0)
#pragma carve work bytes(2.0*N*N*4)
#pragma carve baseline copy(N*N*4)
__global__ void tp_naive(const float *A, float *C, int n)
{
    int x = blockIdx.x * TILE + threadIdx.x;    /* column of C = row of A */
    int y = blockIdx.y * TILE + threadIdx.y;    /* row of C = column of A */
    for (int j = 0; j < TILE; j += ROWS)
        C[(y + j) * n + x] = A[x * n + y + j];
}
