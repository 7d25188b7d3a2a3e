/* mm_tile32 (family mm): C = A * B through 32x32 shared-memory tiles, 32x32 = 1024-thread blocks.
 *
 * What changes from mm_tile16: tiles of 32x32 (8 KB of shared memory per block), so each global
 * element is fetched N/32 times instead of N/16 and there are half as many barrier pairs per FMA;
 * a warp is now one full row of the tile (Bs[k][tx] over 32 banks, As[ty][k] a broadcast).
 *
 * Expected effect: a little faster than mm_tile16 (fewer barriers and L2 requests per FMA); the
 * inner loop is still 2 shared loads per FMA, so the gain is modest (~1.1-1.3x). 1024-thread
 * blocks allow only 2 resident blocks per SM, so every barrier stalls half the SM's warps.
 * Requires N to be a multiple of 32 (64 for the family).
 *
 * Measured on an H200 (carve bench --verify, median of 20, default size, 2026-11-22):
 * 1.8476 ms, 3rd of 7 in the family (1.76x the fastest).
 */
#ifndef N
#define N 2048
#endif
#define TILE 32

#pragma carve launch mm_tile32 grid(N/TILE, N/TILE) block(TILE, TILE)
#pragma carve arg A = float[N*N] : random(1)
#pragma carve arg B = float[N*N] : random(2)
#pragma carve arg C = float[N*N] : zeros out
#pragma carve arg n = N
#pragma carve tol rel(1e-5)
#pragma carve work flops(2.0*N*N*N) bytes(3.0*N*N*4)
#pragma carve baseline sgemm(N, N, N)
__global__ void mm_tile32(const float *A, const float *B, float *C, int n)
{
    __shared__ float As[TILE][TILE];
    __shared__ float Bs[TILE][TILE];
    int tx = threadIdx.x, ty = threadIdx.y;
    int col = blockIdx.x * TILE + tx;
    int row = blockIdx.y * TILE + ty;
    float sum = 0.0f;
    for (int t = 0; t < n; t += TILE) {
        As[ty][tx] = A[row * n + t + tx];
        Bs[ty][tx] = B[(t + ty) * n + col];
        __syncthreads();
        for (int k = 0; k < TILE; k++)
            sum += As[ty][k] * Bs[k][tx];
        __syncthreads();
    }
    C[row * n + col] = sum;
}
