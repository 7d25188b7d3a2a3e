/* covariance, spelling b: register accumulators, while and `<=` loops, early returns. */
#ifndef M
#define M 1024
#endif
#ifndef N
#define N 1024
#endif
#pragma carve launch mean_kernel grid((M+127)/128) block(128)
#pragma carve arg mean = float[M] : zeros out
#pragma carve arg data = float[N*M] : random(1)
#pragma carve arg m = M
#pragma carve arg n = N
#pragma carve tol rel(1e-4)
#pragma carve work flops(1.0*N*M) bytes(4.0*N*M)
#pragma carve baseline sgemv_t(N, M)
#pragma carve launch covar_kernel grid(M/16, M/16) block(16, 16)
#pragma carve arg symmat = float[M*M] : zeros out
#pragma carve arg data = float[N*M] : random(1)
#pragma carve arg m = M
#pragma carve arg n = N
#pragma carve tol rel(1e-4)
#pragma carve work flops(2.0*M*M*N) bytes(4.0*(N*M + M*M))
#pragma carve baseline sgemm(M, M, N)
__global__ void mean_kernel(float *mean, const float *data, int m, int n)
{
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    if (col >= m) return;
    float s = 0.0f;
    int r = 0;
    while (r < n) {
        s += data[r * m + col];
        r++;
    }
    mean[col] = s / (float)n;
}
__global__ void covar_kernel(float *symmat, const float *data, int m, int n)
{
    float c = 0.0f;
    int b = blockIdx.x * blockDim.x + threadIdx.x;
    int a = blockIdx.y * blockDim.y + threadIdx.y;
    if (a >= m || b >= m) return;
    for (int r = 0; r <= n - 1; r++)
        c += data[r * m + a] * data[r * m + b];
    symmat[a * m + b] = c;
}
