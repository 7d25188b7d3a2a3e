/* tp_shared: matrix transpose through a 32x32 shared-memory tile, WITHOUT padding.
 *
 * Source: the classic tiled transpose (Ruetsch and Micikevicius, "Optimizing Matrix Transpose in
 * CUDA", 2009); Yang et al. 3.3 produce this shape when they coalesce tp through shared memory.
 * Both global accesses are coalesced, but reading the tile by column puts all 32 threads of a
 * warp in one bank: a 32-way conflict. `carve analyze` reports it with the remedy (declare the
 * tile [32][33]); bench/patterns/shared_conflict.cu measures the same conflict on the GPU. */
#ifndef N
#define N 4096
#endif
#define TILE 32
#pragma carve launch tp_shared grid(N/TILE, N/TILE) block(TILE, 8)
#pragma carve arg A = float[N*N] : random(1)
#pragma carve arg C = float[N*N] : zeros out
#pragma carve arg n = N
#pragma carve work bytes(2.0*N*N*4)
#pragma carve baseline copy(N*N*4)
__global__ void tp_shared(const float *A, float *C, int n)
{
    __shared__ float tile[TILE][TILE];
    int x = blockIdx.x * TILE + threadIdx.x;
    int y = blockIdx.y * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += 8)
        tile[threadIdx.y + j][threadIdx.x] = A[(y + j) * n + x];
    __syncthreads();
    x = blockIdx.y * TILE + threadIdx.x;
    y = blockIdx.x * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += 8)
        C[(y + j) * n + x] = tile[threadIdx.x][threadIdx.y + j];
}
