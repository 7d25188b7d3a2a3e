/* sum: the sum of N floats, accumulated with one atomicAdd per element into out[0].
 *
 * Source: the first reduction a CUDA programmer writes, as NVIDIA's own material shows it before
 * improving it: Luitjens, "Faster Parallel Reductions on Kepler" (NVIDIA Developer Blog, 2014),
 * starts from atomics on one address, and the CUDA C++ Programming Guide's atomicAdd entry
 * (B.14.1.1) is the primitive it uses; Harris, "Optimizing Parallel Reduction in CUDA" (2007)
 * gives the tree forms that replace it.
 *
 * Naive because: every thread issues an atomic to the same address, so the N atomics are
 * serialized at one L2 slice (the whole kernel waits on one cache line); each thread loads one
 * scalar element (no vector loads, no memory-level parallelism per thread), and nothing is
 * combined in registers, warps or blocks before the atomic. Float sums are reassociated by any
 * faster form (and the order of the naive atomics is itself unspecified), hence the tolerance. */
#ifndef N
#define N (1 << 24)
#endif

#pragma carve launch sum grid((N+255)/256) block(256)
#pragma carve arg in = float[N] : random(1)
#pragma carve arg out = float[1] : zeros out
#pragma carve arg n = N
#pragma carve tol rel(1e-3)
#pragma carve work flops(1.0*N) bytes(4.0*N)
#pragma carve baseline cub_sum(N)
__global__ void sum(const float *in, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        atomicAdd(out, in[i]);
}
