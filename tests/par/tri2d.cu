/* The upper triangle (col >= row) of A^T B as a 2-D thread-per-output kernel: tile's triangular
 * bound (a guard term on both the row and the column). The product is not symmetric and the lower
 * triangle keeps the output's old contents, so a tile that skips a non-empty block, or writes an
 * output below the diagonal, differs from the original. (tests/test_opt.c) */
#ifndef M
#define M 64
#endif
#ifndef N
#define N 32
#endif
#pragma carve launch tri2d grid((M+15)/16, (M+15)/16) block(16, 16)
#pragma carve arg out = float[M*M] : zeros out
#pragma carve arg a = float[N*M] : random(1)
#pragma carve arg b = float[N*M] : random(2)
#pragma carve tol rel(1e-5)
__global__ void tri2d(float *out, const float *a, const float *b)
{
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    if (row < M && col < M && col >= row) {
        float s = 0.0f;
        for (int k = 0; k < N; k++)
            s += a[k * M + row] * b[k * M + col];
        out[row * M + col] = s;
    }
}
