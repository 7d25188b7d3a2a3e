/* hist_global (holdout round 2, family hist): 256-bin histogram of bytes, one global atomicAdd
 * per element. */
#ifndef N
#define N (1 << 24)
#endif
#pragma carve launch hist_global grid(N / 256) block(256)
#pragma carve arg data = unsigned char[N] : random(1)
#pragma carve arg bins = unsigned int[256] : zeros out
#pragma carve arg n = N
#pragma carve work flops(0) bytes(1.0*N)
__global__ void hist_global(const unsigned char *data, unsigned int *bins, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        atomicAdd(&bins[data[i]], 1u);
}
