/* reduce_v3 (family reduce): per-block sum, Harris kernel 3: sequential addressing.
 *
 * What changes from reduce_v2: the stride starts at blockDim/2 and halves; thread tid < s adds
 * s[tid + s] into s[tid]. Active threads are contiguous and the accesses are unit-stride: no
 * divergence in full warps and no bank conflicts. Half of the threads are idle from the first
 * level on (fixed by reduce_v4).
 *
 * Expected effect: faster than reduce_v2 (Harris: 2.01x on G80); now close to memory-bound but
 * still paying a barrier per level and idle threads. Output as reduce_v1 (partial[N/256]).
 *
 * Measured on an H200 (carve bench --verify, median of 20, default size, 2026-11-22):
 * 0.0822 ms, 4th of 6 in the family (2.51x the fastest).
 */
#ifndef N
#define N (1 << 24)
#endif
#define BLOCK 256

#pragma carve launch reduce_v3 grid((N+BLOCK-1)/BLOCK) block(BLOCK)
#pragma carve arg in = float[N] : random(1)
#pragma carve arg partial = float[(N+BLOCK-1)/BLOCK] : zeros out
#pragma carve arg n = N
#pragma carve tol rel(1e-5)
#pragma carve work flops(1.0*N) bytes(4.0*N + 4.0*((N+BLOCK-1)/BLOCK))
#pragma carve baseline sasum(N)
__global__ void reduce_v3(const float *in, float *partial, int n)
{
    __shared__ float s[BLOCK];
    unsigned int tid = threadIdx.x;
    unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
    s[tid] = (i < n) ? in[i] : 0.0f;
    __syncthreads();
    for (unsigned int stride = blockDim.x / 2; stride > 0; stride >>= 1) {
        if (tid < stride)
            s[tid] += s[tid + stride];
        __syncthreads();
    }
    if (tid == 0)
        partial[blockIdx.x] = s[0];
}
