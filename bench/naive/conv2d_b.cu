/* 2-D convolution, spelling b: a general K x K filter in loops over a filter array. */
#ifndef N
#define N 2048
#endif
#define K 3
#pragma carve launch conv2d_k grid(N/16, N/16) block(16, 16)
#pragma carve arg in = float[N*N] : random(1)
#pragma carve arg f = float[K*K] : random(2)
#pragma carve arg out = float[N*N] : zeros out
#pragma carve arg n = N
#pragma carve tol rel(1e-5)
#pragma carve work flops(2.0*K*K*N*N) bytes(8.0*N*N)
#pragma carve baseline copy(N*N*4)
__global__ void conv2d_k(const float *in, const float *f, float *out, int n)
{
    int x = blockIdx.x * 16 + threadIdx.x;
    int y = blockIdx.y * 16 + threadIdx.y;
    if (x < K / 2 || y < K / 2 || x >= n - K / 2 || y >= n - K / 2) return;
    float s = 0.0f;
    for (int dy = 0; dy < K; dy++)
        for (int dx = 0; dx < K; dx++)
            s += f[dy * K + dx] * in[(y + dy - K / 2) * n + (x + dx - K / 2)];
    out[y * n + x] = s;
}
