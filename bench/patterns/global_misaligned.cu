/* global_misaligned: unit-stride global access shifted by OFFSET elements.
 *
 * Thesis: Cornelis (VUB 2010), Ch. 4 "Parallel Data Access", §4.1 (coalescing rules: CC 1.0/1.1
 * need the half-warp's 16 words in one aligned 64-B segment with thread k on word k, CC 1.2/1.3
 * one aligned 128-B segment in any order) and §4.2 (Listing 4.1 copy, Fig. 4.2; the crossed-access
 * probe that tells the two rules apart). Misalignment is the simplest access that breaks the
 * CC 1.x alignment rule while staying sequential.
 *
 * What is measured: a copy of N floats with one side shifted by OFFSET elements (4 B each):
 *   global_misaligned        out[i] = in[i + OFFSET]   (misaligned read, aligned write)
 *   global_misaligned_write  out[i + OFFSET] = in[i]   (aligned read, misaligned write)
 * The shifted buffer has N + OFFSET floats (cudaMalloc bases are 256-B aligned).
 *
 * Sweep: OFFSET = 0 1 2 3 4 5 6 7 8 9 12 15 16 17 24 31 32 (any value >= 0 is valid).
 *
 * Model (sm_90: 32-B sectors, whole-warp requests of 128 B):
 *   sectors per request on the shifted side = 4 if OFFSET % 8 == 0 else 5;
 *   DRAM traffic is unchanged (the extra sector is the neighbouring warp's, fetched once and hit in
 *   L1/L2), so t(OFFSET) ~ t(0) * 1.0 when DRAM-bound; at most 5/4 of the L2->SM sector traffic.
 *   Predicted time: 2 * 4N / BW ~ 94 us for N = 32 Mi at 2.85 TB/s, flat in OFFSET, with at most a
 *   few % extra for OFFSET % 8 != 0 (and possibly for OFFSET % 32 != 0: a 128-B line split).
 *   Thesis-era rule: CC 1.0/1.1 -> 16 transactions per half-warp for OFFSET % 16 != 0
 *   (16x the transactions); CC 1.2/1.3 -> one transaction grown to 128 B, or two when the
 *   half-warp's 64 B cross a 128-B boundary.
 */
#ifndef OFFSET
#define OFFSET 0
#endif
#ifndef N
#define N (1 << 25) /* 32 Mi floats: 128 MiB per side */
#endif
#ifndef BLOCK
#define BLOCK 256
#endif

#pragma carve launch global_misaligned grid((N + BLOCK - 1) / BLOCK) block(BLOCK)
#pragma carve arg in = float[N + OFFSET] : random(1)
#pragma carve arg out = float[N] : zeros out
#pragma carve arg n = N
__global__ void global_misaligned(const float *in, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = in[i + OFFSET];
}

#pragma carve launch global_misaligned_write grid((N + BLOCK - 1) / BLOCK) block(BLOCK)
#pragma carve arg in = float[N] : random(1)
#pragma carve arg out = float[N + OFFSET] : zeros out
#pragma carve arg n = N
__global__ void global_misaligned_write(const float *in, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i + OFFSET] = in[i];
}
