// expect: split not applicable: a walk reads an element of 'y' another lane wrote (y[c - 1])
#ifndef N
#define N 100
#endif
#pragma carve launch k grid((N+63)/64) block(64)
#pragma carve arg x = float[N*N] : random(1)
#pragma carve arg y = float[N*N] : zeros out
#pragma carve arg n = N
#pragma carve tol rel(1e-5)
__global__ void k(const float *x, float *y, int n)
{
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r < n) {
        float m = x[r * n];
        for (int c = 1; c < n; c++)
            m = fmaxf(m, x[r * n + c]);
        y[r * n] = 0.0f;
        for (int c = 1; c < n; c++)
            y[r * n + c] = y[r * n + c - 1] + x[r * n + c] - m;
    }
}
