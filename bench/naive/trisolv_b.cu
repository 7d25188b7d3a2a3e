/* triangular solve step, spelling b: an early return, compound assignment, the pivot in a register. */
#ifndef N
#define N 4096
#endif
#ifndef J
#define J 100
#endif
#pragma carve launch trisolv_step grid(N/128) block(128)
#pragma carve arg L = float[N*N] : random(1)
#pragma carve arg x = float[N] : random(2) out
#pragma carve arg n = N
#pragma carve arg j = J
#pragma carve tol rel(1e-5)
#pragma carve work flops(2.0*N) bytes(12.0*N)
#pragma carve baseline copy(N*4)
__global__ void trisolv_step(const float *L, float *x, int n, int j)
{
    int row = blockIdx.x * 128 + threadIdx.x;
    if (row <= j || row >= n) return;
    float xj = x[j];
    x[row] -= L[row * n + j] * xj;
}
