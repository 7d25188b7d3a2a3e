/* tp_shared (family tp): C = A^T through a 32x32 shared-memory tile, WITHOUT padding.
 *
 * What changes from the naive versions: a 32x8 block reads a 32x32 tile of A row by row
 * (coalesced) into shared memory, synchronizes, and writes it to C row by row (coalesced),
 * reading the tile by column. Both global sides are coalesced (4 sectors per request), but the
 * column read tile[threadIdx.x][j] puts all 32 lanes of a warp in the same bank: a 32-way bank
 * conflict (32 wavefronts per shared load).
 *
 * Expected effect: faster than both naive versions (global traffic is minimal), but held back by
 * the 32-way conflicts; roughly 1.3-2x the copy time. The family requires N to be a multiple of
 * 32. (The same kernel as examples/tp_shared.cu.)
 *
 * Measured on an H200 (carve bench --verify, median of 20, default size, 2026-11-22):
 * 0.0891 ms, 4th of 5 in the family (2.17x the fastest): slower than tp_naive (0.0782 ms),
 * against the expectation above; the 32-way conflicts cost more than tp_naive's strided reads.
 */
#ifndef N
#define N 4096
#endif
#define TILE 32
#define ROWS 8

#pragma carve launch tp_shared grid(N/TILE, N/TILE) block(TILE, ROWS)
#pragma carve arg A = float[N*N] : random(1)
#pragma carve arg C = float[N*N] : zeros out
#pragma carve arg n = N
#pragma carve tol rel(0)
#pragma carve work bytes(2.0*N*N*4)
#pragma carve baseline copy(N*N*4)
__global__ void tp_shared(const float *A, float *C, int n)
{
    __shared__ float tile[TILE][TILE];
    int x = blockIdx.x * TILE + threadIdx.x;
    int y = blockIdx.y * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += ROWS)
        tile[threadIdx.y + j][threadIdx.x] = A[(y + j) * n + x];
    __syncthreads();
    x = blockIdx.y * TILE + threadIdx.x;
    y = blockIdx.x * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += ROWS)
        C[(y + j) * n + x] = tile[threadIdx.x][threadIdx.y + j];
}
