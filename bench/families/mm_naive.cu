/* mm_naive (family mm): C = A * B, all N x N float, row-major. Reference variant of the family.
 *
 * What it is: one thread per output element, 16x16 blocks, every operand read straight from
 * global memory (Yang et al., PLDI 2010, Fig. 2a). A warp reads one A element (broadcast) and a
 * coalesced row segment of B per k; each input element is fetched N/16 times through L1/L2, with
 * no reuse through shared memory or registers.
 *
 * Expected effect: the slowest of the family. Bound by L1/L2 load throughput (2 loads per FMA),
 * roughly 3 ms at N = 2048 on an H100/H200. The whole family requires N to be a multiple of 64
 * (mm_reg4x1 covers 64 rows per block); this file alone works for any N.
 *
 * Measured on an H200 (carve bench --verify, median of 20, default size, 2026-11-22):
 * 3.1783 ms, 7th of 7 in the family (3.02x the fastest).
 */
#ifndef N
#define N 2048
#endif

#pragma carve launch mm_naive grid((N+15)/16, (N+15)/16) block(16, 16)
#pragma carve arg A = float[N*N] : random(1)
#pragma carve arg B = float[N*N] : random(2)
#pragma carve arg C = float[N*N] : zeros out
#pragma carve arg n = N
#pragma carve tol rel(1e-5)
#pragma carve work flops(2.0*N*N*N) bytes(3.0*N*N*4)
#pragma carve baseline sgemm(N, N, N)
__global__ void mm_naive(const float *A, const float *B, float *C, int n)
{
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    if (col < n && row < n) {
        float sum = 0.0f;
        for (int k = 0; k < n; k++)
            sum += A[row * n + k] * B[k * n + col];
        C[row * n + col] = sum;
    }
}
