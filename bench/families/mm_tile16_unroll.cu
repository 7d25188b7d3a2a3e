/* mm_tile16_unroll (family mm): mm_tile16 with `#pragma unroll` on the 16-step inner loop.
 *
 * What changes from mm_tile16: only the inner k loop is fully unrolled, removing the loop
 * counter, compare and branch and letting the compiler fold the shared addresses into immediate
 * offsets (ld.shared with constant displacement) and schedule loads ahead of the FMAs.
 *
 * Expected effect: equal to or slightly faster than mm_tile16 (~1.0-1.2x). nvcc usually unrolls a
 * constant-trip 16-iteration loop by itself at -O3, so on the GPU the two may time the same; a
 * model that counts loop overhead instructions would predict a larger gap than is measured.
 * Requires N to be a multiple of 16 (64 for the family).
 *
 * Measured on an H200 (carve bench --verify, median of 20, default size, 2026-11-22):
 * 2.1109 ms, 4th of 7 in the family (2.01x the fastest).
 */
#ifndef N
#define N 2048
#endif
#define TILE 16

#pragma carve launch mm_tile16_unroll grid(N/TILE, N/TILE) block(TILE, TILE)
#pragma carve arg A = float[N*N] : random(1)
#pragma carve arg B = float[N*N] : random(2)
#pragma carve arg C = float[N*N] : zeros out
#pragma carve arg n = N
#pragma carve tol rel(1e-5)
#pragma carve work flops(2.0*N*N*N) bytes(3.0*N*N*4)
#pragma carve baseline sgemm(N, N, N)
__global__ void mm_tile16_unroll(const float *A, const float *B, float *C, int n)
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
#pragma unroll
        for (int k = 0; k < TILE; k++)
            sum += As[ty][k] * Bs[k][tx];
        __syncthreads();
    }
    C[row * n + col] = sum;
}
