/* branch_divergence: SIMT branch divergence, equal-cost arms.
 *
 * Thesis: Cornelis, "Anti-parallel Patterns in Fine-grain Data-parallel Programs" (VUB 2010),
 * Ch. 3 "Branching", §3.2 benchmark (Listing 3.1, the switch kernel whose input matrix doubles as
 * the thread -> branch map; compute-intensive variant), Fig. 3.1, eq. 3.1.
 *
 * What is measured: each thread loads key = map[i] and takes arm b = (key & 31) * BRANCHES / 32
 * of a 32-way switch. With the default map (iota) key & 31 is the lane, so the 32 lanes of every
 * warp split into BRANCHES contiguous groups (sizes differ by at most one) and every warp follows
 * exactly n = BRANCHES distinct arms. All arms cost the same: ITERS dependent FMAs (x = x*a_c + c_c)
 * with arm-specific constants, so nvcc cannot merge the arms (the thesis notes the 2010 compiler
 * did not merge its identical cases; a modern one would, hence the distinct constants). The trip
 * count is a kernel argument, so the loops are not unrolled away. The branch depends on loaded
 * data, as in the thesis, so the compiler cannot prove it uniform. BRANCHES reaches the kernel as the
 * argument `branches` (not as a compile-time constant), so every sweep point runs the same binary
 * with the full 32-way switch; only the data decides how many arms a warp follows.
 *
 * Sweep: BRANCHES = 1 2 3 4 5 6 7 8 10 12 16 20 24 28 32 (any value 1..32 is valid).
 *
 * Model (eq. 3.1): t_total = t_outside + n * t_branch, n = BRANCHES (branches followed per warp).
 * Divergent paths still serialize on sm_90 (independent thread scheduling interleaves paths, it does
 * not overlap them), so the time is linear in BRANCHES with slope t_branch = the time of the kernel
 * with one arm minus t_outside. sm_90 numbers for the defaults: N/32 = 131072 warps x ITERS = 384
 * dependent FMAs per arm (loop unrolled by 16: 19 instructions per 16 FMAs); issue-bound at one
 * warp-instruction per scheduler per cycle (132 SMs x 4 schedulers x 1.98 GHz), one arm is
 * ~60 M warp-instructions ~ 57 us, so t(1) ~ 0.06 ms and t(32) ~ 1.8 ms; warp efficiency
 * (threads per instruction) = 32 / BRANCHES inside the switch (ncu:
 * smsp__thread_inst_executed_per_inst_executed).
 * Other maps: --arg 'map=int[4194304]:random(7,0,32)' gives each lane an independent random key;
 * arm b then has weight w_b = (lanes of group b) / 32 and E[n] = sum_b (1 - (1 - w_b)^32)
 * (eq. 3.3's weights; = BRANCHES * (1 - (1 - 1/BRANCHES)^32) when BRANCHES divides 32).
 */
#ifndef BRANCHES
#define BRANCHES 1
#endif
#ifndef N
#define N (1 << 22) /* 2048 x 2048, the thesis's matrix, flattened */
#endif
#ifndef ITERS
#define ITERS 384
#endif
#ifndef BLOCK
#define BLOCK 256
#endif

#pragma carve launch branch_divergence grid((N + BLOCK - 1) / BLOCK) block(BLOCK)
#pragma carve arg map = int[N] : iota
#pragma carve arg out = float[N] : zeros out
#pragma carve arg n = N
#pragma carve arg iters = ITERS
#pragma carve arg branches = BRANCHES
#pragma carve tol rel(1e-5)

/* one arm's work: iters dependent FMAs with the arm's own constants */
__device__ float arm_op(float x, int iters, float a, float c)
{
#pragma unroll 16
    for (int k = 0; k < iters; k++)
        x = x * a + c;
    return x;
}

#define ARM(c) case c: r = arm_op(v, iters, 1.0f - 0.0001f * (c + 1), 0.001f * (c + 1)); break;

__global__ void branch_divergence(const int *map, float *out, int n, int iters, int branches)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    int key = map[i];
    int b = ((key & 31) * branches) >> 5; /* 0 .. branches-1 */
    float v = (float)(key & 1023) * (1.0f / 1024.0f);
    float r = 0.0f;
    switch (b) {
        ARM(0) ARM(1) ARM(2) ARM(3) ARM(4) ARM(5) ARM(6) ARM(7)
        ARM(8) ARM(9) ARM(10) ARM(11) ARM(12) ARM(13) ARM(14) ARM(15)
        ARM(16) ARM(17) ARM(18) ARM(19) ARM(20) ARM(21) ARM(22) ARM(23)
        ARM(24) ARM(25) ARM(26) ARM(27) ARM(28) ARM(29) ARM(30) ARM(31)
        default: break;
    }
    out[i] = r;
}
