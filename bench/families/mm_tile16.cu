/* mm_tile16 (family mm): C = A * B through 16x16 shared-memory tiles (thread-block merge).
 *
 * What changes from mm_naive: each 16x16 block stages a 16x16 tile of A and of B in shared
 * memory per step of 16 in k (both loads coalesced), synchronizes, and runs 16 FMAs out of shared
 * memory. Global/L2 traffic drops 16x; As[ty][k] is a broadcast and Bs[k][tx] is conflict-free.
 *
 * Expected effect: clearly faster than mm_naive (about 1.5-2.5x): the inner loop now does 2
 * shared loads per FMA plus 2 barriers per 16 FMAs, so it is bound by shared-memory bandwidth and
 * barrier latency rather than by L1/L2. Requires N to be a multiple of 16 (64 for the family).
 *
 * Measured on an H200 (carve bench --verify, median of 20, default size, 2026-11-22):
 * 2.1120 ms, 5th of 7 in the family (2.01x the fastest).
 */
#ifndef N
#define N 2048
#endif
#define TILE 16

#pragma carve launch mm_tile16 grid(N/TILE, N/TILE) block(TILE, TILE)
#pragma carve arg A = float[N*N] : random(1)
#pragma carve arg B = float[N*N] : random(2)
#pragma carve arg C = float[N*N] : zeros out
#pragma carve arg n = N
#pragma carve tol rel(1e-5)
#pragma carve work flops(2.0*N*N*N) bytes(3.0*N*N*4)
#pragma carve baseline sgemm(N, N, N)
__global__ void mm_tile16(const float *A, const float *B, float *C, int n)
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
