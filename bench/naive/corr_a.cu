/* correlation's column standard deviation, spelling a: PolyBench's std kernel (mean given). */
#ifndef M
#define M 1024
#endif
#ifndef N
#define N 1024
#endif
#pragma carve launch std_kernel grid((M+255)/256) block(256)
#pragma carve arg mean = float[M] : random(1)
#pragma carve arg std = float[M] : zeros out
#pragma carve arg data = float[N*M] : random(2)
#pragma carve arg float_n = 1024.0
#pragma carve tol rel(1e-4)
#pragma carve work flops(3.0*N*M) bytes(4.0*N*M)
#pragma carve baseline sgemv_t(N, M)
__global__ void std_kernel(float *mean, float *std, float *data, float float_n)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    if (j < M) {
        std[j] = 0.0f;
        int i;
        for (i = 0; i < N; i++)
            std[j] += (data[i * M + j] - mean[j]) * (data[i * M + j] - mean[j]);
        std[j] /= float_n;
        std[j] = sqrtf(std[j]);
        if (std[j] <= 0.1f) std[j] = 1.0f;
    }
}
