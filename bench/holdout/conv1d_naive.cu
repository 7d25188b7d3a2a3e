/* conv1d_naive (holdout family conv1d): out[i] = sum over k of w[k] * in[i + k], 17 taps,
 * every tap read from global memory. */
#ifndef N
#define N (1 << 22)
#endif
#define R 8
#pragma carve launch conv1d_naive grid(N / 256) block(256)
#pragma carve arg in = float[N + 2 * R] : random(1)
#pragma carve arg wt = float[2 * R + 1] : random(2)
#pragma carve arg out = float[N] : zeros out
#pragma carve arg n = N
#pragma carve tol rel(1e-5)
#pragma carve work flops(2.0*(2*R+1)*N) bytes(8.0*N)
__global__ void conv1d_naive(const float *in, const float *wt, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float s = 0.0f;
    for (int k = 0; k < 2 * R + 1; k++)
        s += wt[k] * in[i + k];
    out[i] = s;
}
