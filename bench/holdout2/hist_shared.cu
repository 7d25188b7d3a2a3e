/* hist_shared (holdout round 2, family hist): the same histogram with per-block bins in shared
 * memory (16 elements per thread), merged into the global bins at the end. */
#ifndef N
#define N (1 << 24)
#endif
#pragma carve launch hist_shared grid(N / 4096) block(256)
#pragma carve arg data = unsigned char[N] : random(1)
#pragma carve arg bins = unsigned int[256] : zeros out
#pragma carve arg n = N
#pragma carve work flops(0) bytes(1.0*N)
__global__ void hist_shared(const unsigned char *data, unsigned int *bins, int n)
{
    __shared__ unsigned int local[256];
    local[threadIdx.x] = 0;
    __syncthreads();
    int base = blockIdx.x * 4096;
    for (int k = 0; k < 16; k++) {
        int i = base + k * 256 + threadIdx.x;
        if (i < n)
            atomicAdd(&local[data[i]], 1u);
    }
    __syncthreads();
    atomicAdd(&bins[threadIdx.x], local[threadIdx.x]);
}
