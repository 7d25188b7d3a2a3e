/* gemv, spelling b: y = alpha*A*x + beta*y with a pointer row, an early return, size_t index. */
#ifndef N
#define N 4096
#endif
#pragma carve launch gemv_rows grid((N+127)/128) block(128)
#pragma carve arg A = float[N*N] : random(1)
#pragma carve arg x = float[N] : random(2)
#pragma carve arg y = float[N] : random(3) out
#pragma carve arg n = N
#pragma carve arg alpha = 1.5
#pragma carve arg beta = 0.5
#pragma carve tol rel(1e-4)
#pragma carve work flops(2.0*N*N) bytes(4.0*(N*N + 3.0*N))
#pragma carve baseline sgemv(N, N)
__global__ void gemv_rows(const float *A, const float *x, float *y, int n, float alpha, float beta)
{
    int row = blockIdx.x * blockDim.x + threadIdx.x;
    if (row >= n) return;
    const float *a = A + row * n;
    float dot = 0.0f;
    for (int j = 0; j < n; ++j)
        dot += a[j] * x[j];
    y[row] = alpha * dot + beta * y[row];
}
