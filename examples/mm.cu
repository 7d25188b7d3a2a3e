/* mm: naive matrix multiplication, C = A * B (all N x N, row-major).
 *
 * Source: Yang, Xiang, Kong, Zhou, "A GPGPU Compiler for Memory Optimization and Parallelism
 * Management", PLDI 2010, Fig. 2a and Table 1 ("mm", 1k x 1k to 4k x 4k).
 *
 * Naive because: one thread per output element and every operand comes straight from global
 * memory. Each thread walks a whole row of A (one address per row of threads: a broadcast with no
 * reuse through shared memory) and a whole column of B, so every input element is fetched N
 * times. No tiling (thread-block merge) and no register blocking (thread merge). */
#ifndef N
#define N 2048
#endif

#pragma carve launch mm grid((N+15)/16, (N+15)/16) block(16, 16)
#pragma carve arg A = float[N*N] : random(1)
#pragma carve arg B = float[N*N] : random(2)
#pragma carve arg C = float[N*N] : zeros out
#pragma carve arg n = N
#pragma carve tol rel(1e-5)
#pragma carve work flops(2.0*N*N*N) bytes(3.0*N*N*4)
#pragma carve baseline sgemm(N, N, N)
__global__ void mm(const float *A, const float *B, float *C, int n)
{
    int idx = blockIdx.x * blockDim.x + threadIdx.x;   /* column of C */
    int idy = blockIdx.y * blockDim.y + threadIdx.y;   /* row of C */
    if (idx < n && idy < n) {
        float sum = 0.0f;
        for (int i = 0; i < n; i++)
            sum += A[idy * n + i] * B[i * n + idx];
        C[idy * n + idx] = sum;
    }
}
