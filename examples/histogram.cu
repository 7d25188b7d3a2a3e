/* histogram: naive 256-bin histogram of 8-bit values, bins[v] = number of elements equal to v.
 *
 * Source: the classic CUDA histogram example of the atomics / synchronization literature; it is
 * the contention counterpart of the patterns in Cornelis (master's thesis, VUB 2010), Ch. 5
 * (synchronization: same-address atomics serialize) and Ch. 3 (the dynamic-reordering remedy
 * builds exactly this histogram in shared memory).
 *
 * Naive because: one thread per element and one atomicAdd on a global-memory bin per element.
 * All N updates go to only 256 addresses, so same-bin atomics from the whole grid serialize at
 * the L2; the standard fix is privatization (a per-block histogram in shared memory, merged with
 * one global atomic per bin per block) plus several elements per thread. Skewed data makes it
 * worse; the default input is uniform. */
#ifndef N
#define N (1 << 24)
#endif
#define NBINS 256

#pragma carve launch histogram grid((N+255)/256) block(256)
#pragma carve arg data = unsigned char[N] : random(1, 0, 256)
#pragma carve arg bins = unsigned int[NBINS] : zeros out
#pragma carve arg n = N
__global__ void histogram(const unsigned char *data, unsigned int *bins, int n)
{
    int idx = blockIdx.x * blockDim.x + threadIdx.x;
    if (idx < n)
        atomicAdd(&bins[data[idx]], 1u);
}
