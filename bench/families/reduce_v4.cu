/* reduce_v4 (family reduce): per-block sum, Harris kernel 4: first add during the global load.
 *
 * What changes from reduce_v3: each block reduces 2*256 elements; every thread loads two elements
 * (tid and tid + 256 of the block's tile, both coalesced) and adds them before the shared-memory
 * tree, so no thread is idle after the load and half as many blocks (N/512) are launched.
 *
 * Expected effect: faster than reduce_v3 (Harris: 1.78x on G80); the tree's cost is amortized
 * over twice the data. partial has N/512 entries; sum(partial) equals the family total.
 *
 * Measured on an H200 (carve bench --verify, median of 20, default size, 2026-11-22):
 * 0.0459 ms, 3rd of 6 in the family (1.41x the fastest).
 */
#ifndef N
#define N (1 << 24)
#endif
#define BLOCK 256

#pragma carve launch reduce_v4 grid((N+2*BLOCK-1)/(2*BLOCK)) block(BLOCK)
#pragma carve arg in = float[N] : random(1)
#pragma carve arg partial = float[(N+2*BLOCK-1)/(2*BLOCK)] : zeros out
#pragma carve arg n = N
#pragma carve tol rel(1e-5)
#pragma carve work flops(1.0*N) bytes(4.0*N + 4.0*((N+2*BLOCK-1)/(2*BLOCK)))
#pragma carve baseline sasum(N)
__global__ void reduce_v4(const float *in, float *partial, int n)
{
    __shared__ float s[BLOCK];
    unsigned int tid = threadIdx.x;
    unsigned int i = blockIdx.x * (2 * blockDim.x) + threadIdx.x;
    float v = (i < n) ? in[i] : 0.0f;
    if (i + blockDim.x < n)
        v += in[i + blockDim.x];
    s[tid] = v;
    __syncthreads();
    for (unsigned int stride = blockDim.x / 2; stride > 0; stride >>= 1) {
        if (tid < stride)
            s[tid] += s[tid + stride];
        __syncthreads();
    }
    if (tid == 0)
        partial[blockIdx.x] = s[0];
}
