/* mm_reg2x2 (family mm): 16x16 threads per block, each thread computes a 2x2 block of outputs
 * (register blocking / thread merge in x and y), so a block covers a 32x32 tile of C.
 *
 * What changes from mm_tile16: per k-step of 16 the block stages a 32x16 tile of A and a 16x32
 * tile of B (2 + 2 coalesced loads per thread; the B tile is loaded with a warp per 32-wide row
 * so its shared stores are conflict-free); each thread keeps 4 accumulators and, per k,
 * reads 2 values of A and 2 of B from shared memory for 4 FMAs: 1 shared load per FMA instead of
 * 2, and each global element is fetched N/32 times instead of N/16. The thread's outputs are
 * rows ty, ty+16 and columns tx, tx+16, so every shared and global access stays conflict-free
 * and coalesced. A quarter as many threads (N*N/4).
 *
 * Expected effect: the fastest or second fastest of the family (~1.5-2x over mm_tile16): it halves
 * the shared-memory traffic per FMA that bounds the tiled versions, and 4 independent
 * accumulators give ILP. Requires N to be a multiple of 32 (64 for the family).
 *
 * Measured on an H200 (carve bench --verify, median of 20, default size, 2026-11-22):
 * 1.0515 ms, 1st of 7 in the family (1.00x the fastest).
 */
#ifndef N
#define N 2048
#endif
#define TILE 16

#pragma carve launch mm_reg2x2 grid(N/(2*TILE), N/(2*TILE)) block(TILE, TILE)
#pragma carve arg A = float[N*N] : random(1)
#pragma carve arg B = float[N*N] : random(2)
#pragma carve arg C = float[N*N] : zeros out
#pragma carve arg n = N
#pragma carve tol rel(1e-5)
#pragma carve work flops(2.0*N*N*N) bytes(3.0*N*N*4)
#pragma carve baseline sgemm(N, N, N)
__global__ void mm_reg2x2(const float *A, const float *B, float *C, int n)
{
    __shared__ float As[2 * TILE][TILE];
    __shared__ float Bs[TILE][2 * TILE];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * 2 * TILE + ty;       /* rows row and row + TILE */
    int col = blockIdx.x * 2 * TILE + tx;       /* columns col and col + TILE */
    int lin = ty * TILE + tx;                   /* B tile: 16 rows x 32, loaded as 2 x (8 x 32) */
    int br = lin / (2 * TILE), bc = lin % (2 * TILE);
    int bcol = blockIdx.x * 2 * TILE + bc;
    float c00 = 0.0f, c01 = 0.0f, c10 = 0.0f, c11 = 0.0f;
    for (int t = 0; t < n; t += TILE) {
        As[ty][tx] = A[row * n + t + tx];
        As[ty + TILE][tx] = A[(row + TILE) * n + t + tx];
        Bs[br][bc] = B[(t + br) * n + bcol];           /* one warp = one 32-wide row of Bs */
        Bs[br + TILE / 2][bc] = B[(t + br + TILE / 2) * n + bcol];
        __syncthreads();
        for (int k = 0; k < TILE; k++) {
            float a0 = As[ty][k], a1 = As[ty + TILE][k];
            float b0 = Bs[k][tx], b1 = Bs[k][tx + TILE];
            c00 += a0 * b0;
            c01 += a0 * b1;
            c10 += a1 * b0;
            c11 += a1 * b1;
        }
        __syncthreads();
    }
    C[row * n + col] = c00;
    C[row * n + col + TILE] = c01;
    C[(row + TILE) * n + col] = c10;
    C[(row + TILE) * n + col + TILE] = c11;
}
