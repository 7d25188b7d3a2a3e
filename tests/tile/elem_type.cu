// expect: tile on mm: applied
/* the tile pass's async copies (prefetch 3, 4) by element size: cp.async moves 4, 8 or 16 bytes,
 * so doubles are copied 8 bytes an element and shorts cannot be (tests/test_opt.c test_tile_async) */
#ifndef N
#define N 40
#endif
#ifndef T
#define T double
#endif
#pragma carve launch mm grid((N+15)/16, (N+15)/16) block(16, 16)
#pragma carve arg A = T[N*N] : random(1, -8, 8)
#pragma carve arg B = T[N*N] : random(2, -8, 8)
#pragma carve arg C = T[N*N] : zeros out
#pragma carve arg n = N
#pragma carve tol rel(1e-9)
__global__ void mm(const T *A, const T *B, T *C, int n)
{
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    if (row < n && col < n) {
        T s = 0;
        for (int k = 0; k < n; k++)
            s += A[row * n + k] * B[k * n + col];
        C[row * n + col] = s;
    }
}
