// expect: tile on mm: applied
/* tile pass: 128-bit tile loads only where the stride is proved 1 (tests/test_opt.c test_tile).
 * A is read column-major (A[k*n + row]: unit stride along the row, not along k), B along k with
 * a stride of 2 (every other column): neither gets float4 loads; the result stays exact. */
#ifndef N
#define N 64
#endif
#pragma carve launch mm grid((N+15)/16, (N+15)/16) block(16, 16)
#pragma carve arg A = float[N*N] : random(1)
#pragma carve arg B = float[2*N*N] : random(2)
#pragma carve arg C = float[N*N] : zeros out
#pragma carve arg n = N
#pragma carve tol rel(1e-5)
__global__ void mm(const float *A, const float *B, float *C, int n)
{
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    if (row < n && col < n) {
        float s = 0.0f;
        for (int k = 0; k < n; k++)
            s += A[k*n+row]*B[k*2*n+2*col];
        C[row*n+col] = s;
    }
}
