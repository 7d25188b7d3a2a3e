/* covariance, spelling a: PolyBench's column mean (mean[j] over rows) and the covariance of
 * columns (symmat[j1][j2] over rows of the centred data), accumulated in global memory. */
#ifndef M
#define M 1024
#endif
#ifndef N
#define N 1024
#endif
#pragma carve launch mean_kernel grid((M+255)/256) block(256)
#pragma carve arg mean = float[M] : zeros out
#pragma carve arg data = float[N*M] : random(1)
#pragma carve arg float_n = 1024.0
#pragma carve tol rel(1e-4)
#pragma carve work flops(1.0*N*M) bytes(4.0*N*M)
#pragma carve baseline sgemv_t(N, M)
#pragma carve launch covar_kernel grid((M+31)/32, (M+7)/8) block(32, 8)
#pragma carve arg symmat = float[M*M] : zeros out
#pragma carve arg data = float[N*M] : random(1)
#pragma carve tol rel(1e-4)
#pragma carve work flops(2.0*M*M*N) bytes(4.0*(N*M + M*M))
#pragma carve baseline sgemm(M, M, N)
__global__ void mean_kernel(float *mean, float *data, float float_n)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    if (j < M) {
        mean[j] = 0.0f;
        int i;
        for (i = 0; i < N; i++)
            mean[j] += data[i * M + j];
        mean[j] /= float_n;
    }
}
__global__ void covar_kernel(float *symmat, float *data)
{
    int j2 = blockIdx.x * blockDim.x + threadIdx.x;
    int j1 = blockIdx.y * blockDim.y + threadIdx.y;
    if (j1 < M && j2 < M) {
        symmat[j1 * M + j2] = 0.0f;
        int i;
        for (i = 0; i < N; i++)
            symmat[j1 * M + j2] += data[i * M + j1] * data[i * M + j2];
    }
}
