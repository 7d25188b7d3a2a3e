/* mv_colmajor (holdout family mv): y = A x with one thread per row reading A column by column
 * (A[j*h + row], coalesced) and x staged through shared memory; A is stored transposed, so the
 * input buffer is At = A^T (same random values, other layout: the family compares times only). */
#ifndef H
#define H 4096
#endif
#ifndef W
#define W 4096
#endif
#pragma carve launch mv_colmajor grid(H / 128) block(128)
#pragma carve arg A = float[H*W] : random(1)
#pragma carve arg x = float[W] : random(2)
#pragma carve arg y = float[H] : zeros out
#pragma carve arg h = H
#pragma carve arg w = W
#pragma carve tol rel(1e-4)
#pragma carve work flops(2.0*H*W) bytes(4.0*(H*W + W + H))
__global__ void mv_colmajor(const float *A, const float *x, float *y, int h, int w)
{
    __shared__ float xs[128];
    int row = blockIdx.x * 128 + threadIdx.x;
    float s = 0.0f;
    for (int j0 = 0; j0 < w; j0 += 128) {
        xs[threadIdx.x] = x[j0 + threadIdx.x];
        __syncthreads();
        for (int j = 0; j < 128; j++)
            s += A[(j0 + j) * h + row] * xs[j];
        __syncthreads();
    }
    y[row] = s;
}
