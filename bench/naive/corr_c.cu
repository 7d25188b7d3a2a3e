/* correlation, spelling c: a thread per column j1 sets the diagonal to 1 and runs the serial loop
 * over the columns j2 > j1 (the strict upper triangle), mirroring each result; the last column's
 * thread only sets its diagonal. A 1-D grid of ceil(M/256) blocks, as public suites' CUDA ports
 * write it. Written for carve (not copied). */
#ifndef M
#define M 1024
#endif
#ifndef N
#define N 1024
#endif
#pragma carve launch corr_kernel grid((M+255)/256) block(256)
#pragma carve arg symmat = float[M*M] : zeros out
#pragma carve arg data = float[N*M] : random(1)
#pragma carve tol rel(1e-4)
#pragma carve work flops(1.0*M*(M-1)*N) bytes(4.0*(N*M + M*M))
#pragma carve baseline sgemm(M, M, N)
__global__ void corr_kernel(float *symmat, float *data)
{
    int j1 = blockIdx.x * blockDim.x + threadIdx.x;
    int i, j2;
    if (j1 < M) {
        symmat[j1 * M + j1] = 1.0f;
        for (j2 = j1 + 1; j2 < M; j2++) {
            symmat[j1 * M + j2] = 0.0f;
            for (i = 0; i < N; i++)
                symmat[j1 * M + j2] += data[i * M + j1] * data[i * M + j2];
            symmat[j2 * M + j1] = symmat[j1 * M + j2];
        }
    }
}
