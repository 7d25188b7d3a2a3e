/* rowsum_split (holdout round 2, family rowsum): the same row sums with 8 threads per row, each
 * summing a contiguous eighth of the row, then a shuffle reduction among the 8. */
#ifndef R
#define R 4096
#endif
#ifndef C
#define C 4096
#endif
#pragma carve launch rowsum_split grid(R / 32) block(256)
#pragma carve arg A = float[R*C] : random(1)
#pragma carve arg s = float[R] : zeros out
#pragma carve arg c = C
#pragma carve tol rel(1e-4)
#pragma carve work flops(1.0*R*C) bytes(4.0*R*C)
__global__ void rowsum_split(const float *A, float *s, int c)
{
    int r = blockIdx.x * 32 + threadIdx.x / 8;
    int part = threadIdx.x % 8;
    int len = c / 8;
    float v = 0.0f;
    for (int j = 0; j < len; j++)
        v += A[r * c + part * len + j];
    for (int off = 4; off > 0; off /= 2)
        v += __shfl_down_sync(0xffffffff, v, off);
    if (part == 0)
        s[r] = v;
}
