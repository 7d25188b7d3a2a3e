/* reduce_v2 (family reduce): per-block sum, Harris kernel 2: interleaved addressing with a
 * strided index instead of a divergent branch.
 *
 * What changes from reduce_v1: at stride s thread tid works on index = 2*s*tid (if index <
 * blockDim.x), so the active threads are contiguous (the first blockDim/(2s)): no divergence
 * inside full warps and no `%`. But the shared accesses s[index] and s[index + s] are now strided
 * by 2s words: 2-way, 4-way ... up to 16-way bank conflicts at the upper levels.
 *
 * Expected effect: faster than reduce_v1 (Harris: 2.33x on G80), slower than reduce_v3.
 * Output as reduce_v1 (partial[N/256]).
 *
 * Measured on an H200 (carve bench --verify, median of 20, default size, 2026-11-22):
 * 0.1038 ms, 5th of 6 in the family (3.18x the fastest).
 */
#ifndef N
#define N (1 << 24)
#endif
#define BLOCK 256

#pragma carve launch reduce_v2 grid((N+BLOCK-1)/BLOCK) block(BLOCK)
#pragma carve arg in = float[N] : random(1)
#pragma carve arg partial = float[(N+BLOCK-1)/BLOCK] : zeros out
#pragma carve arg n = N
#pragma carve tol rel(1e-5)
#pragma carve work flops(1.0*N) bytes(4.0*N + 4.0*((N+BLOCK-1)/BLOCK))
#pragma carve baseline sasum(N)
__global__ void reduce_v2(const float *in, float *partial, int n)
{
    __shared__ float s[BLOCK];
    unsigned int tid = threadIdx.x;
    unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
    s[tid] = (i < n) ? in[i] : 0.0f;
    __syncthreads();
    for (unsigned int stride = 1; stride < blockDim.x; stride *= 2) {
        unsigned int index = 2 * stride * tid;
        if (index < blockDim.x)
            s[index] += s[index + stride];
        __syncthreads();
    }
    if (tid == 0)
        partial[blockIdx.x] = s[0];
}
