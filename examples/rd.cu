/* rd: naive sum reduction, stage 1: partial[t] = sum of A[t], A[t + SEG], A[t + 2*SEG], ...
 *
 * Source: Yang et al., PLDI 2010, Table 1 ("rd", 1 to 16 million floats). The paper's naive rd
 * uses a global sync between a strided accumulate (stride segSize, the `#pragma gCompiler gValue
 * segSize` hint) and a log-step tree over the SEG partial sums. A global sync cannot be expressed
 * in one launch, so this file holds stage 1 only, which is correct on its own: SEG threads each
 * sum a strided segment into partial[]. The remaining SEG values are summed by a second launch
 * (for example reduce_shared.cu) or on the host.
 *
 * Naive because: global memory only, one partial sum per thread, a single scalar load per
 * iteration (no vector loads, no unrolling, no in-block combining of the partials). Accesses are
 * coalesced (thread t reads A[t + k*SEG]), so what it lacks is memory-level parallelism per thread
 * and the final combine. */
#ifndef N
#define N (1 << 24)
#endif
#ifndef SEG
#define SEG 262144
#endif

#pragma carve launch rd grid((SEG+255)/256) block(256)
#pragma carve arg A = float[N] : random(1)
#pragma carve arg partial = float[SEG] : zeros out
#pragma carve arg n = N
#pragma carve arg seg = SEG
#pragma carve tol rel(1e-6)
#pragma carve work flops(1.0*N) bytes(4.0*(N + SEG))
#pragma carve baseline sasum(N)
__global__ void rd(const float *A, float *partial, int n, int seg)
{
    int idx = blockIdx.x * blockDim.x + threadIdx.x;
    if (idx < seg) {
        float sum = 0.0f;
        for (int k = idx; k < n; k += seg)
            sum += A[k];
        partial[idx] = sum;
    }
}
