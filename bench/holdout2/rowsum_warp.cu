/* rowsum_warp (holdout round 2, family rowsum): the same row sums, one warp per row, coalesced
 * reads and a shuffle reduction. */
#ifndef R
#define R 4096
#endif
#ifndef C
#define C 4096
#endif
#pragma carve launch rowsum_warp grid(R / 8) block(256)
#pragma carve arg A = float[R*C] : random(1)
#pragma carve arg s = float[R] : zeros out
#pragma carve arg c = C
#pragma carve tol rel(1e-4)
#pragma carve work flops(1.0*R*C) bytes(4.0*R*C)
__global__ void rowsum_warp(const float *A, float *s, int c)
{
    int r = blockIdx.x * 8 + threadIdx.x / 32;
    int lane = threadIdx.x % 32;
    float v = 0.0f;
    for (int j = lane; j < c; j += 32)
        v += A[r * c + j];
    for (int off = 16; off > 0; off /= 2)
        v += __shfl_down_sync(0xffffffff, v, off);
    if (lane == 0)
        s[r] = v;
}
