/* correlation's column standard deviation, spelling b: the mean in a register, a while loop. */
#ifndef M
#define M 1024
#endif
#ifndef N
#define N 1024
#endif
#pragma carve launch std_kernel grid((M+127)/128) block(128)
#pragma carve arg mean = float[M] : random(1)
#pragma carve arg std = float[M] : zeros out
#pragma carve arg data = float[N*M] : random(2)
#pragma carve arg m = M
#pragma carve arg n = N
#pragma carve tol rel(1e-4)
#pragma carve work flops(3.0*N*M) bytes(4.0*N*M)
#pragma carve baseline sgemv_t(N, M)
__global__ void std_kernel(const float *mean, float *std, const float *data, int m, int n)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    if (j >= m) return;
    float mu = mean[j];
    float s = 0.0f;
    int i = 0;
    while (i < n) {
        float d = data[i * m + j] - mu;
        s += d * d;
        i++;
    }
    s = sqrtf(s / (float)n);
    std[j] = s <= 0.1f ? 1.0f : s;
}
