/* strsm: naive triangular solve, L * X = B with L unit lower triangular (N x N) and B an N x M
 * block of right-hand sides; X overwrites B (BLAS strsm, side=L, uplo=L, trans=N, diag=U, alpha=1).
 * All arrays are row-major. The diagonal and upper triangle of L are never read.
 *
 * Source: Yang et al., PLDI 2010, Table 1 ("strsm", 1k x 1k to 4k x 4k). The authors' release
 * only ships the GEMM-like trailing update; this file is the whole solve, written the naive way:
 * one thread per column of B, which is independent of every other column, so one launch is
 * correct and the result is deterministic.
 *
 * Naive because: forward substitution runs serially inside each thread with everything in global
 * memory. Row i of L is a broadcast re-read by every thread, the already-solved values X[k][col]
 * are re-read from global memory N^2/2 times per column instead of living in registers or shared
 * memory, and there are only M threads of parallelism.
 *
 * L is filled with small values (|l| < 0.05) so the unit-diagonal system stays well conditioned
 * (solutions stay O(1) up to N = 4096; larger random entries make forward substitution blow up
 * exponentially). */
#ifndef N
#define N 1024
#endif
#ifndef M
#define M 4096
#endif

#pragma carve launch strsm grid((M+127)/128) block(128)
#pragma carve arg L = float[N*N] : random(1, -0.05, 0.05)
#pragma carve arg B = float[N*M] : random(2) out
#pragma carve arg n = N
#pragma carve arg m = M
#pragma carve baseline strsm(N, M)
#pragma carve tol rel(1e-5)
__global__ void strsm(const float *L, float *B, int n, int m)
{
    int idx = blockIdx.x * blockDim.x + threadIdx.x;   /* column of B */
    if (idx < m) {
        for (int i = 0; i < n; i++) {
            float x = B[i * m + idx];
            for (int k = 0; k < i; k++)
                x -= L[i * n + k] * B[k * m + idx];
            B[i * m + idx] = x;
        }
    }
}
