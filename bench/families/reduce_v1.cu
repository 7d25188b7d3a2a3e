/* reduce_v1 (family reduce): partial[b] = sum of the 256 elements of block b's tile of `in`
 * (elements past N count as 0). Harris, "Optimizing Parallel Reduction in CUDA", kernel 1.
 * Reference variant of the family.
 *
 * What it is: one element per thread loaded into shared memory, then a tree with interleaved
 * addressing: at stride s the threads with tid % (2s) == 0 add s[tid + s]. The active threads
 * stay interleaved, so every warp diverges at every level, and the `%` is a slow integer op.
 *
 * Expected effect: the slowest of the family (Harris: 8.05 ms, 2.08 GB/s for 4M ints on a G80);
 * instruction/divergence-bound, several times the pure read time of 64 MB.
 *
 * Family output: the variants differ in how many elements a block reduces, so `partial` has a
 * different length in each (v1-v3: N/256, v4-v5: N/512, v6: 1024); sum(partial) is the same
 * total in all of them and is what is compared. BLOCK must equal blockDim.x (power of two).
 *
 * Measured on an H200 (carve bench --verify, median of 20, default size, 2026-11-22):
 * 0.1645 ms, 6th of 6 in the family (5.03x the fastest).
 */
#ifndef N
#define N (1 << 24)
#endif
#define BLOCK 256

#pragma carve launch reduce_v1 grid((N+BLOCK-1)/BLOCK) block(BLOCK)
#pragma carve arg in = float[N] : random(1)
#pragma carve arg partial = float[(N+BLOCK-1)/BLOCK] : zeros out
#pragma carve arg n = N
#pragma carve tol rel(1e-5)
#pragma carve work flops(1.0*N) bytes(4.0*N + 4.0*((N+BLOCK-1)/BLOCK))
#pragma carve baseline sasum(N)
__global__ void reduce_v1(const float *in, float *partial, int n)
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
