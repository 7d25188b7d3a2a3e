/* tp_diagonal (family tp): tp_padded with diagonal block reordering (Ruetsch and Micikevicius
 * 2009, "partition camping"): block (bx, by) of the launch handles tile
 * (bx', by') = ((bx + by) mod G, bx), G = gridDim.x, so blocks that run at the same time read
 * and write along a diagonal of tiles instead of a row/column of tiles.
 *
 * What changes from tp_padded: only the mapping of block indices to tiles (a mod and an add per
 * block). Square matrices only (N x N); the mapping is a permutation of the tiles.
 *
 * Expected effect: on GT200-class GPUs it removed partition camping (2-3x); on an H100, whose
 * physical address hashing spreads consecutive 256-B chunks over all channels, it should time
 * the same as tp_padded (within noise) or be marginally slower. A model that still charges
 * partition camping would wrongly rank it first. The family requires N to be a multiple of 32.
 *
 * Measured on an H200 (carve bench --verify, median of 20, default size, 2026-11-22):
 * 0.0428 ms, 2nd of 5 in the family (1.04x the fastest).
 */
#ifndef N
#define N 4096
#endif
#define TILE 32
#define ROWS 8

#pragma carve launch tp_diagonal grid(N/TILE, N/TILE) block(TILE, ROWS)
#pragma carve arg A = float[N*N] : random(1)
#pragma carve arg C = float[N*N] : zeros out
#pragma carve arg n = N
#pragma carve tol rel(0)
#pragma carve work bytes(2.0*N*N*4)
#pragma carve baseline copy(N*N*4)
__global__ void tp_diagonal(const float *A, float *C, int n)
{
    __shared__ float tile[TILE][TILE + 1];
    int by = blockIdx.x;                                    /* diagonal reordering */
    int bx = (blockIdx.x + blockIdx.y) % gridDim.x;
    int x = bx * TILE + threadIdx.x;
    int y = by * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += ROWS)
        tile[threadIdx.y + j][threadIdx.x] = A[(y + j) * n + x];
    __syncthreads();
    x = by * TILE + threadIdx.x;
    y = bx * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += ROWS)
        C[(y + j) * n + x] = tile[threadIdx.x][threadIdx.y + j];
}
