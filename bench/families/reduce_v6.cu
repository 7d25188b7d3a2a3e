/* reduce_v6 (family reduce): per-block sum with several elements per thread (Harris kernel 7,
 * "multiple adds per thread", algorithm cascading): a fixed grid of BLOCKS = 1024 blocks, each
 * thread first sums in[i], in[i + G], in[i + 2G], ... with a grid-stride loop (G = BLOCKS * 256
 * threads, every access coalesced), then the block reduces its 256 sums as in reduce_v5 (shared
 * tree down to 64, warp shuffles for the last warp).
 *
 * What changes from reduce_v5: 64 elements per thread at N = 2^24 instead of 2; the tree and the
 * block launch are paid 1024 times instead of 32768. Here partial[b] is the sum of a strided
 * subset of `in`, not a contiguous tile; only sum(partial) compares with the other variants.
 *
 * Expected effect: the fastest of the family, at or near the DRAM read bandwidth (Harris: 1.4x
 * over kernel 6 on G80; on an H100 the gain over reduce_v5 is smaller, ~1.0-1.3x). 1024 blocks
 * of 256 threads = ~7.8 blocks per SM on 132 SMs (under one wave: one SM in 16 with a lighter
 * load). partial has BLOCKS entries.
 *
 * Measured on an H200 (carve bench --verify, median of 20, default size, 2026-11-22):
 * 0.0327 ms, 1st of 6 in the family (1.00x the fastest).
 */
#ifndef N
#define N (1 << 24)
#endif
#ifndef BLOCKS
#define BLOCKS 1024
#endif
#define BLOCK 256

#pragma carve launch reduce_v6 grid(BLOCKS) block(BLOCK)
#pragma carve arg in = float[N] : random(1)
#pragma carve arg partial = float[BLOCKS] : zeros out
#pragma carve arg n = N
#pragma carve tol rel(1e-5)
#pragma carve work flops(1.0*N) bytes(4.0*N + 4.0*BLOCKS)
#pragma carve baseline sasum(N)
__global__ void reduce_v6(const float *in, float *partial, int n)
{
    __shared__ float s[BLOCK];
    unsigned int tid = threadIdx.x;
    unsigned int gridSize = blockDim.x * gridDim.x;
    float v = 0.0f;
    for (unsigned int i = blockIdx.x * blockDim.x + tid; i < n; i += gridSize)
        v += in[i];
    s[tid] = v;
    __syncthreads();
    for (unsigned int stride = blockDim.x / 2; stride > 32; stride >>= 1) {
        if (tid < stride)
            s[tid] += s[tid + stride];
        __syncthreads();
    }
    if (tid < 32) {
        v = s[tid] + s[tid + 32];
        for (int offset = 16; offset > 0; offset >>= 1)
            v += __shfl_down_sync(0xffffffffu, v, offset);
        if (tid == 0)
            partial[blockIdx.x] = v;
    }
}
