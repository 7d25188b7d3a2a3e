/* mm_reg4x1 (family mm): thread merge in y (Yang et al., PLDI 2010, 3.5): 16x16 threads per
 * block, each thread computes 4 outputs of one column (rows ty, ty+16, ty+32, ty+48), so a block
 * covers a 64x16 tile of C.
 *
 * What changes from mm_tile16: per k-step of 16 the block stages a 64x16 tile of A (4 coalesced
 * loads per thread) and a 16x16 tile of B (1 load); per k a thread loads Bs[k][tx] once into a
 * register and reuses it for 4 FMAs with 4 values of A: 5 shared loads per 4 FMAs instead of 8.
 * B is fetched N/64 times from global memory, A still N/16 times. A quarter as many threads.
 *
 * Expected effect: faster than mm_tile16 (~1.3-1.8x), slightly behind mm_reg2x2 (1.25 vs 1 shared
 * load per FMA, and A's global reuse is unchanged). Requires N to be a multiple of 64.
 *
 * Measured on an H200 (carve bench --verify, median of 20, default size, 2026-11-22):
 * 1.1437 ms, 2nd of 7 in the family (1.09x the fastest).
 */
#ifndef N
#define N 2048
#endif
#define TILE 16
#define MERGE 4

#pragma carve launch mm_reg4x1 grid(N/TILE, N/(MERGE*TILE)) block(TILE, TILE)
#pragma carve arg A = float[N*N] : random(1)
#pragma carve arg B = float[N*N] : random(2)
#pragma carve arg C = float[N*N] : zeros out
#pragma carve arg n = N
#pragma carve tol rel(1e-5)
#pragma carve work flops(2.0*N*N*N) bytes(3.0*N*N*4)
#pragma carve baseline sgemm(N, N, N)
__global__ void mm_reg4x1(const float *A, const float *B, float *C, int n)
{
    __shared__ float As[MERGE * TILE][TILE];
    __shared__ float Bs[TILE][TILE];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * MERGE * TILE + ty;   /* rows row, row+16, row+32, row+48 */
    int col = blockIdx.x * TILE + tx;
    float c0 = 0.0f, c1 = 0.0f, c2 = 0.0f, c3 = 0.0f;
    for (int t = 0; t < n; t += TILE) {
        As[ty][tx] = A[row * n + t + tx];
        As[ty + TILE][tx] = A[(row + TILE) * n + t + tx];
        As[ty + 2 * TILE][tx] = A[(row + 2 * TILE) * n + t + tx];
        As[ty + 3 * TILE][tx] = A[(row + 3 * TILE) * n + t + tx];
        Bs[ty][tx] = B[(t + ty) * n + col];
        __syncthreads();
        for (int k = 0; k < TILE; k++) {
            float b = Bs[k][tx];
            c0 += As[ty][k] * b;
            c1 += As[ty + TILE][k] * b;
            c2 += As[ty + 2 * TILE][k] * b;
            c3 += As[ty + 3 * TILE][k] * b;
        }
        __syncthreads();
    }
    C[row * n + col] = c0;
    C[(row + TILE) * n + col] = c1;
    C[(row + 2 * TILE) * n + col] = c2;
    C[(row + 3 * TILE) * n + col] = c3;
}
