/* conv: naive 2-D convolution of an image with a K x K filter (valid region only):
 *   C[y][x] = sum over j, i < K of A[y + K-1 - j][x + K-1 - i] * F[j][i]
 * A is the (N+K-1) x (N+K-1) input (the N x N output area plus a K-1 apron), F is K x K,
 * C is N x N; all row-major.
 *
 * Source: Yang et al., PLDI 2010, Table 1 ("conv", 4k x 4k image, 32 x 32 kernel); the release's
 * naive kernel is `sum += A(idy-j+h, idx-i+w) * B(j, i)` over a padded input.
 *
 * Naive because: one thread per output pixel, global memory only. Neighbouring threads read
 * overlapping K x K windows of A, so each input pixel is fetched K*K times instead of once per
 * shared-memory tile; the filter F is a broadcast re-read by every thread (a constant-memory or
 * register candidate); the inner window walk is not unrolled. */
#ifndef N
#define N 4096
#endif
#ifndef K
#define K 32
#endif

#pragma carve launch conv grid((N+15)/16, (N+15)/16) block(16, 16)
#pragma carve arg A = float[(N+K-1)*(N+K-1)] : random(1)
#pragma carve arg F = float[K*K] : random(2, -1, 1)
#pragma carve arg C = float[N*N] : zeros out
#pragma carve arg n = N
#pragma carve arg k = K
#pragma carve tol rel(1e-5)
__global__ void conv(const float *A, const float *F, float *C, int n, int k)
{
    int idx = blockIdx.x * blockDim.x + threadIdx.x;   /* output column */
    int idy = blockIdx.y * blockDim.y + threadIdx.y;   /* output row */
    int wa = n + k - 1;                                /* row pitch of A */
    if (idx < n && idy < n) {
        float sum = 0.0f;
        for (int j = 0; j < k; j++)
            for (int i = 0; i < k; i++)
                sum += A[(idy + k - 1 - j) * wa + (idx + k - 1 - i)] * F[j * k + i];
        C[idy * n + idx] = sum;
    }
}
