/* rowsum_thread (holdout round 2, family rowsum): s[r] = sum of row r of a 4096 x 4096 matrix,
 * one thread per row (each warp reads 32 rows: uncoalesced). */
#ifndef R
#define R 4096
#endif
#ifndef C
#define C 4096
#endif
#pragma carve launch rowsum_thread grid(R / 128) block(128)
#pragma carve arg A = float[R*C] : random(1)
#pragma carve arg s = float[R] : zeros out
#pragma carve arg c = C
#pragma carve tol rel(1e-4)
#pragma carve work flops(1.0*R*C) bytes(4.0*R*C)
__global__ void rowsum_thread(const float *A, float *s, int c)
{
    int r = blockIdx.x * 128 + threadIdx.x;
    float v = 0.0f;
    for (int j = 0; j < c; j++)
        v += A[r * c + j];
    s[r] = v;
}
