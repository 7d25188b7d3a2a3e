/* reduce_shared: per-block sum reduction in shared memory, partial[b] = sum of the BLOCK elements
 * of block b (elements past N count as 0). BLOCK is a power of two and must equal blockDim.x
 * (it sizes the static shared array).
 *
 * Source: the classic interleaved-addressing tree reduction (Harris, "Optimizing Parallel
 * Reduction in CUDA", kernel 1), the shared-memory form of the reduction tree that Cornelis
 * (master's thesis, VUB 2010, Ch. 3 and 7) and Yang et al. (PLDI 2010, rd stage 2) analyse.
 *
 * Naive because: active threads are selected by `tid % (2*stride) == 0`, so they stay interleaved
 * and every warp diverges at every level (branching; fix: sequential addressing / static thread
 * reordering), the `%` is a slow integer operation, the strided shared-memory accesses cause bank
 * conflicts, half of the threads only load one element and idle (fix: add two elements during
 * the load), and the last warp is synchronized with full barriers. */
#ifndef N
#define N (1 << 24)
#endif
#ifndef BLOCK
#define BLOCK 256
#endif

#pragma carve launch reduce_shared grid((N+BLOCK-1)/BLOCK) block(BLOCK)
#pragma carve arg in = float[N] : random(1)
#pragma carve arg partial = float[(N+BLOCK-1)/BLOCK] : zeros out
#pragma carve arg n = N
#pragma carve tol rel(1e-6)
__global__ void reduce_shared(const float *in, float *partial, int n)
{
    __shared__ float s[BLOCK];
    unsigned int tid = threadIdx.x;
    unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;

    s[tid] = (i < n) ? in[i] : 0.0f;
    __syncthreads();
    for (unsigned int stride = 1; stride < blockDim.x; stride *= 2) {
        if (tid % (2 * stride) == 0)
            s[tid] += s[tid + stride];
        __syncthreads();
    }
    if (tid == 0)
        partial[blockIdx.x] = s[0];
}
