/* mm_acc: naive matrix multiplication that accumulates straight into global memory,
 * C += A * B (all N x N, row-major; C starts at zero).
 *
 * Source: the naive form `c[i*n+j] += a[i*n+k]*b[k*n+j]` that carve's optimizer issue names (the
 * loop body of Yang et al., PLDI 2010, Fig. 2a, written the way a first CUDA port often is).
 *
 * Naive because: besides mm.cu's re-reads, every iteration loads C[row][col], adds, and stores
 * it back: a dependence through memory that nvcc cannot keep in a register, since the store
 * through C may alias A or B (no __restrict__). Scalar replacement keeps the element in a
 * register and stores it once. */
#ifndef N
#define N 1024
#endif

#pragma carve launch mm_acc grid((N+15)/16, (N+15)/16) block(16, 16)
#pragma carve arg A = float[N*N] : random(1)
#pragma carve arg B = float[N*N] : random(2)
#pragma carve arg C = float[N*N] : zeros out
#pragma carve arg n = N
#pragma carve tol rel(1e-5)
#pragma carve work flops(2.0*N*N*N) bytes(3.0*N*N*4)
#pragma carve baseline sgemm(N, N, N)
__global__ void mm_acc(const float *A, const float *B, float *C, int n)
{
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    if (row < n && col < n)
        for (int k = 0; k < n; k++)
            C[row * n + col] += A[row * n + k] * B[k * n + col];
}
