// expect: split not applicable: a walk stores to one element in every iteration (y[r])
#ifndef N
#define N 100
#endif
#pragma carve launch k grid((N+63)/64) block(64)
#pragma carve arg x = float[N*N] : random(1)
#pragma carve arg y = float[N] : zeros out
#pragma carve arg n = N
#pragma carve tol rel(1e-5)
__global__ void k(const float *x, float *y, int n)
{
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r < n) {
        float m = x[r * n];
        for (int c = 1; c < n; c++)
            m = fminf(m, x[r * n + c]);
        for (int c = 0; c < n; c++)
            y[r] = x[r * n + c] - m;
    }
}
