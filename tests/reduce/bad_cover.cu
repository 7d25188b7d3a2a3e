// expect: reduce on bad_cover: not applicable: does not cover the block
/* refused: the tree starts at blockDim.x/4: the upper half never reaches sdata[0] */
#ifndef N
#define N 5000
#endif
#pragma carve launch bad_cover grid((N+255)/256) block(256)
#pragma carve arg in = float[N] : random(1)
#pragma carve arg partial = float[(N+255)/256] : zeros out
#pragma carve arg n = N
#pragma carve tol rel(1e-5)
__global__ void bad_cover(const float *in, float *partial, int n)
{
    __shared__ float sdata[256];
    unsigned int tid = threadIdx.x;
    unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
    sdata[tid] = (i < n) ? in[i] : 0.0f;
    __syncthreads();
    for (unsigned int s = blockDim.x / 4; s > 0; s >>= 1) {
        if (tid < s)
            sdata[tid] += sdata[tid + s];
        __syncthreads();
    }
    if (tid == 0)
        partial[blockIdx.x] = sdata[0];
}
