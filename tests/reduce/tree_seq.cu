// expect: reduce on tree_seq: applied: 8 steps
/* sequential addressing (Harris's kernel 3): the tree the pass must recognize */
#ifndef N
#define N 5000
#endif
#pragma carve launch tree_seq grid((N+255)/256) block(256)
#pragma carve arg in = float[N] : random(1, -1, 1)
#pragma carve arg partial = float[(N+255)/256] : zeros out
#pragma carve arg n = N
#pragma carve tol rel(1e-5) abs(1e-5)
__global__ void tree_seq(const float *in, float *partial, int n)
{
    __shared__ float sdata[256];
    unsigned int tid = threadIdx.x;
    unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
    sdata[tid] = (i < n) ? in[i] : 0.0f;
    __syncthreads();
    for (unsigned int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (tid < s)
            sdata[tid] += sdata[tid + s];
        __syncthreads();
    }
    if (tid == 0)
        partial[blockIdx.x] = sdata[0];
}
