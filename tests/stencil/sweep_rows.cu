/* a sweep: one thread per row walking along it (forward elimination of ADI's row pass), N
 * threads in blocks of 256: at N = 1024, 4 blocks, fewer than the GPU's SMs */
#ifndef N
#define N 1024
#endif
#pragma carve launch sweep grid((N+255)/256) block(256)
#pragma carve arg A = float[N*N] : random(1)
#pragma carve arg B = float[N*N] : random(2)
#pragma carve arg X = float[N*N] : random(3) out
#pragma carve tol rel(1e-4)
__global__ void sweep(float *A, float *B, float *X)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < N)
        for (int j = 1; j < N; j++)
            X[i * N + j] = X[i * N + j] - X[i * N + j - 1] * A[i * N + j] / (B[i * N + j - 1] + 4.0f);
}
