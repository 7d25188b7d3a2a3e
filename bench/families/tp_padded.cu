/* tp_padded (family tp): tp_shared with the tile declared [32][33].
 *
 * What changes from tp_shared: one float of padding per tile row, so column j of the tile walks
 * the banks with stride 33 = 1 mod 32: the column read tile[threadIdx.x][j] is conflict-free
 * (1 wavefront instead of 32). Global accesses unchanged (both coalesced).
 *
 * Expected effect: faster than tp_shared, close to the copy bandwidth (~1.1-1.3x the copy time);
 * the best or tied-best of the family on an H100. The family requires N to be a multiple of 32.
 *
 * Measured on an H200 (carve bench --verify, median of 20, default size, 2026-11-22):
 * 0.0412 ms, 1st of 5 in the family (1.00x the fastest).
 */
#ifndef N
#define N 4096
#endif
#define TILE 32
#define ROWS 8

#pragma carve launch tp_padded grid(N/TILE, N/TILE) block(TILE, ROWS)
#pragma carve arg A = float[N*N] : random(1)
#pragma carve arg C = float[N*N] : zeros out
#pragma carve arg n = N
#pragma carve tol rel(0)
#pragma carve work bytes(2.0*N*N*4)
#pragma carve baseline copy(N*N*4)
__global__ void tp_padded(const float *A, float *C, int n)
{
    __shared__ float tile[TILE][TILE + 1];
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
