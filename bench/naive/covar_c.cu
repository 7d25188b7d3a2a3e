/* covariance, spelling c: a thread per column j1 running the serial loop over the columns j2 >= j1
 * (the upper triangle) and mirroring each result, as public suites' CUDA ports write it: a 1-D
 * grid of ceil(M/256) blocks, so only M threads. Written for carve (not copied). */
#ifndef M
#define M 1024
#endif
#ifndef N
#define N 1024
#endif
#pragma carve launch covar_kernel grid((M+255)/256) block(256)
#pragma carve arg symmat = float[M*M] : zeros out
#pragma carve arg data = float[N*M] : random(1)
#pragma carve tol rel(1e-4)
#pragma carve work flops(1.0*M*(M+1)*N) bytes(4.0*(N*M + M*M))
#pragma carve baseline sgemm(M, M, N)
__global__ void covar_kernel(float *symmat, float *data)
{
    int j1 = blockIdx.x * blockDim.x + threadIdx.x;
    int i, j2;
    if (j1 < M) {
        for (j2 = j1; j2 < M; j2++) {
            symmat[j1 * M + j2] = 0.0f;
            for (i = 0; i < N; i++)
                symmat[j1 * M + j2] += data[i * M + j1] * data[i * M + j2];
            symmat[j2 * M + j1] = symmat[j1 * M + j2];
        }
    }
}
