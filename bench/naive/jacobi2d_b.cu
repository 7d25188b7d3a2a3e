/* Jacobi 2-D step, spelling b: early return, pointer rows above and below. */
#ifndef N
#define N 2048
#endif
#pragma carve launch jacobi2d_rows grid(N/32, N/8) block(32, 8)
#pragma carve arg A = float[N*N] : random(1)
#pragma carve arg B = float[N*N] : zeros out
#pragma carve arg n = N
#pragma carve tol rel(1e-5)
#pragma carve work flops(5.0*N*N) bytes(8.0*N*N)
#pragma carve baseline copy(N*N*4)
__global__ void jacobi2d_rows(const float *A, float *B, int n)
{
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    if (row < 1 || row >= n - 1 || col < 1 || col >= n - 1) return;
    const float *up = A + (row - 1) * n, *mid = A + row * n, *down = A + (row + 1) * n;
    B[row * n + col] = 0.2f * (mid[col] + mid[col - 1] + mid[col + 1] + down[col] + up[col]);
}
