// expect: the same with the offset a parameter (`k0 + blockIdx.y * 8 + threadIdx.y`, lu's
// spelling) and an early return
#ifndef N
#define N 130
#endif
#pragma carve launch interior2 grid((N-2+31)/32, (N-2+7)/8) block(32, 8)
#pragma carve arg A = float[N*N] : random(1)
#pragma carve arg B = float[N*N] : zeros out
#pragma carve arg n = N
#pragma carve arg k0 = 1
__global__ void interior2(const float *A, float *B, int n, int k0)
{
    int j = k0 + blockIdx.x * 32 + threadIdx.x;
    int i = k0 + blockIdx.y * 8 + threadIdx.y;
    if (i >= n - 1 || j >= n - 1)
        return;
    B[i * n + j] = 0.5f * (A[(i - 1) * n + j] + A[(i + 1) * n + j]) - A[i * n + j];
}
