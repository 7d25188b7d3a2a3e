/* reduce_v5 (family reduce): per-block sum, Harris kernel 5 (unroll the last warp), with warp
 * shuffles instead of Harris's volatile warp-synchronous shared memory.
 *
 * What changes from reduce_v4: the shared-memory tree stops at 64 values (strides 128, 64 with
 * barriers); then warp 0 adds s[tid] + s[tid + 32] and finishes with 5 __shfl_down_sync steps
 * (16, 8, 4, 2, 1) in registers: no barriers and no shared traffic for the last 6 levels, and the
 * other 7 warps exit early.
 *
 * Expected effect: faster than reduce_v4 (Harris: 1.8x on G80); on an H100 the kernel should now
 * be close to the DRAM read time of 64 MB. partial has N/512 entries, as in reduce_v4.
 *
 * Measured on an H200 (carve bench --verify, median of 20, default size, 2026-11-22):
 * 0.0339 ms, 2nd of 6 in the family (1.04x the fastest).
 */
#ifndef N
#define N (1 << 24)
#endif
#define BLOCK 256

#pragma carve launch reduce_v5 grid((N+2*BLOCK-1)/(2*BLOCK)) block(BLOCK)
#pragma carve arg in = float[N] : random(1)
#pragma carve arg partial = float[(N+2*BLOCK-1)/(2*BLOCK)] : zeros out
#pragma carve arg n = N
#pragma carve tol rel(1e-5)
#pragma carve work flops(1.0*N) bytes(4.0*N + 4.0*((N+2*BLOCK-1)/(2*BLOCK)))
#pragma carve baseline sasum(N)
__global__ void reduce_v5(const float *in, float *partial, int n)
{
    __shared__ float s[BLOCK];
    unsigned int tid = threadIdx.x;
    unsigned int i = blockIdx.x * (2 * blockDim.x) + threadIdx.x;
    float v = (i < n) ? in[i] : 0.0f;
    if (i + blockDim.x < n)
        v += in[i + blockDim.x];
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
