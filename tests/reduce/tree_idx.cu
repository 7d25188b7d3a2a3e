// expect: reduce on tree_idx: applied: 7 steps
/* strided index (Harris's kernel 2): index = 2*s*tid, an int max tree (exact: no tolerance) */
#ifndef N
#define N 5000
#endif
#pragma carve launch tree_idx grid((N+127)/128) block(128)
#pragma carve arg in = int[N] : random(1, -1000, 1000)
#pragma carve arg partial = int[(N+127)/128] : zeros out
#pragma carve arg n = N
__global__ void tree_idx(const int *in, int *partial, int n)
{
    __shared__ int sdata[128];
    unsigned int tid = threadIdx.x;
    unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
    sdata[tid] = (i < n) ? in[i] : -2147483647 - 1;
    __syncthreads();
    for (unsigned int s = 1; s < blockDim.x; s *= 2) {
        int index = 2 * s * tid;
        if (index < blockDim.x)
            sdata[index] = max(sdata[index], sdata[index + s]);
        __syncthreads();
    }
    if (tid == 0)
        partial[blockIdx.x] = sdata[0];
}
