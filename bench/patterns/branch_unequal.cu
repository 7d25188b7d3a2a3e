/* branch_unequal: SIMT branch divergence with arms of unequal cost.
 *
 * Thesis: Cornelis, "Anti-parallel Patterns in Fine-grain Data-parallel Programs" (VUB 2010),
 * Ch. 3 "Branching", §3.2, Fig. 3.2 (branch k made to run k times as long as branch 1, k = 1..4)
 * and eq. 3.2.
 *
 * What is measured: the kernel of branch_divergence.cu (same map, same 32-way switch, same
 * selection b = (key & 31) * BRANCHES / 32, so every warp follows n = BRANCHES arms), except that
 * arm c runs (c % 4 + 1) * ITERS dependent FMAs: the thesis's 1x, 2x, 3x, 4x costs, repeated over
 * the 32 arms. BRANCHES reaches the kernel as the argument `branches`, so all sweep points run the
 * same binary.
 *
 * Sweep: BRANCHES = 1 2 3 4 5 6 7 8 10 12 16 20 24 28 32 (any value 1..32 is valid).
 *
 * Model (eq. 3.2): t_total = t_outside + sum over the arms followed of t_branch(c)
 *                          = t_outside + S(n) * t_unit,  S(n) = sum_{c<n} (c % 4 + 1),
 * i.e. S(4q + r) = 10q + r(r+1)/2: S = 1, 3, 6, 10, 11, 13, 16, 20, 23, 30, 40, 50, 60, 70, 80
 * for the sweep values above. t_unit (one arm of ITERS FMAs) is the same quantity as t_branch of
 * branch_divergence.cu at ITERS = 160, so the equal-arm fit predicts this sweep with no free
 * parameter (t_unit = t_branch(384) * 160 / 384 when both use their defaults). Charging n times
 * the average arm over all 32 arms (eq. 3.1 with t_branch = 2.5 t_unit) agrees with S(n) only when
 * n is a multiple of 4; the other sweep points tell eq. 3.1 and eq. 3.2 apart.
 * sm_90 numbers: one unit is 131072 warps x 160 FMAs (19 instructions per 16) ~ 25 M
 * warp-instructions ~ 24 us, so t(1) ~ 0.03 ms (with the 32 MiB of map read and out written)
 * and t(32) ~ 80 units ~ 1.9 ms.
 */
#ifndef BRANCHES
#define BRANCHES 1
#endif
#ifndef N
#define N (1 << 22) /* 2048 x 2048, the thesis's matrix, flattened */
#endif
#ifndef ITERS
#define ITERS 160
#endif
#ifndef BLOCK
#define BLOCK 256
#endif

#pragma carve launch branch_unequal grid((N + BLOCK - 1) / BLOCK) block(BLOCK)
#pragma carve arg map = int[N] : iota
#pragma carve arg out = float[N] : zeros out
#pragma carve arg n = N
#pragma carve arg iters = ITERS
#pragma carve arg branches = BRANCHES
#pragma carve tol rel(1e-5)

/* one arm's work: iters dependent FMAs with the arm's own constants (arm c passes (c%4+1)*iters) */
__device__ float arm_op(float x, int iters, float a, float c)
{
#pragma unroll 16
    for (int k = 0; k < iters; k++)
        x = x * a + c;
    return x;
}

#define ARM(c) case c: r = arm_op(v, iters * (c % 4 + 1), 1.0f - 0.0001f * (c + 1), 0.001f * (c + 1)); break;

__global__ void branch_unequal(const int *map, float *out, int n, int iters, int branches)
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
