/* a kernel that is only correct with 16 x 16 blocks: it indexes with the literal 16, not
 * blockDim (carve tune must reject every other launch shape by verification) */
#ifndef N
#define N 256
#endif
#pragma carve launch fixed16 grid(N/16, N/16) block(16, 16)
#pragma carve arg A = float[N*N] : random(1)
#pragma carve arg C = float[N*N] : zeros out
#pragma carve arg n = N
__global__ void fixed16(const float *A, float *C, int n)
{
    int x = blockIdx.x * 16 + threadIdx.x;
    int y = blockIdx.y * 16 + threadIdx.y;
    if (x < n && y < n) C[y * n + x] = 2.0f * A[y * n + x];
}
