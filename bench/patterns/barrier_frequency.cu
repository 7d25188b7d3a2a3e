/* barrier_frequency: intra-block synchronization, a __syncthreads() every M operations.
 *
 * Thesis: Cornelis (VUB 2010), Ch. 5 "Synchronization Points", §5.2 first kernel (read global,
 * n operations with a __syncthreads() every m, write; n = 100, 8,388,608 elements), Fig. 5.1:
 * 20x on the GTX280 between no barrier and a barrier every 2 operations. Barriers = floor(n/m).
 *
 * What is measured: each thread loads one float, applies OPS = 100 operations to it and stores it;
 * after every M operations the block executes __syncthreads(): floor(OPS / M) barriers in all,
 * none when M > OPS. An operation is OPW (default 1) dependent FMAs x = x * 0.999 + 0.001 on a
 * register, the "one statement" of the thesis. M and OPS are compile-time constants, so nvcc emits
 * straight-line FMAs and BAR.SYNCs without loop or modulo overhead; the barriers order nothing (no
 * shared data), so the kernel isolates the barrier's own cost: warps of a block wait for the
 * slowest, and warps waiting at a barrier cannot hide the others' latency.
 *
 * Sweep: M = 1 2 3 4 5 6 8 10 12 16 20 25 32 50 64 100 128 (128 > OPS: no barrier, the reference).
 * Barriers per thread: 100 50 33 25 20 16 12 10 8 6 5 4 3 2 1 1 0.
 *
 * Model (derived from the thesis's statements; the thesis gives only the curve):
 *   t(M) ~ max(t_RW, t_ops + floor(OPS / M) * t_bar)
 * with t_RW the memory time (8 B per element: 128 MiB, ~47 us at 2.85 TB/s), t_ops the FMA time
 * (N * OPS * OPW / (132 SMs x 128 lanes x 1.98 GHz) ~ 50 us) and t_bar the exposed cost of one
 * barrier per warp (occupancy-dependent: with 8 blocks of 8 warps per SM other blocks fill in).
 * Fitting t_bar from the M = 1 point predicts the rest; the thesis's 20x (M = 2 vs none) should
 * shrink strongly on sm_90 at full occupancy (8 blocks per SM), and grow if BLOCK = 1024 (2 blocks).
 */
#ifndef M
#define M 1
#endif
#ifndef OPS
#define OPS 100
#endif
#ifndef OPW
#define OPW 1
#endif
#ifndef N
#define N (1 << 24)
#endif
#ifndef BLOCK
#define BLOCK 256
#endif

/* one operation: OPW dependent FMAs */
#define OP(x)                              \
    for (int w_ = 0; w_ < OPW; w_++)       \
        x = x * 0.999f + 0.001f;

#pragma carve launch barrier_frequency grid((N + BLOCK - 1) / BLOCK) block(BLOCK)
#pragma carve arg in = float[N] : random(1)
#pragma carve arg out = float[N] : zeros out
#pragma carve arg n = N
#pragma carve tol rel(1e-5)
__global__ void barrier_frequency(const float *in, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float x = (i < n) ? in[i] : 0.0f; /* no early return: every thread reaches every barrier */
    for (int j = 0; j < OPS / M; j++) {
        for (int k = 0; k < M; k++) {
            OP(x)
        }
        __syncthreads();
    }
    for (int k = 0; k < OPS % M; k++) {
        OP(x)
    }
    if (i < n)
        out[i] = x;
}
