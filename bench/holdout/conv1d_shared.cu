/* conv1d_shared (holdout family conv1d): the same 17-tap convolution with the block's input
 * tile and halo staged in shared memory. */
#ifndef N
#define N (1 << 22)
#endif
#define R 8
#pragma carve launch conv1d_shared grid(N / 256) block(256)
#pragma carve arg in = float[N + 2 * R] : random(1)
#pragma carve arg wt = float[2 * R + 1] : random(2)
#pragma carve arg out = float[N] : zeros out
#pragma carve arg n = N
#pragma carve tol rel(1e-5)
#pragma carve work flops(2.0*(2*R+1)*N) bytes(8.0*N)
__global__ void conv1d_shared(const float *in, const float *wt, float *out, int n)
{
    __shared__ float t[256 + 2 * R];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    t[threadIdx.x] = in[i];
    if (threadIdx.x < 2 * R)
        t[256 + threadIdx.x] = in[i + 256];
    __syncthreads();
    float s = 0.0f;
    for (int k = 0; k < 2 * R + 1; k++)
        s += wt[k] * t[threadIdx.x + k];
    out[i] = s;
}
