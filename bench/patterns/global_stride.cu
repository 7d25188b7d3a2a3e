/* global_stride: global-memory coalescing versus access stride.
 *
 * Thesis: Cornelis (VUB 2010), Ch. 4 "Parallel Data Access", §4.2 (Listing 4.1, the global copy
 * whose read or write side is made uncoalesced; Table 4.1, slowdowns C/N x C/N). The thesis has
 * only the best and worst case; this stride sweep is the extension its extraction asks for.
 *
 * What is measured: a copy of N floats in which one side walks memory with a stride of STRIDE
 * elements (4 B words) between consecutive threads and the other side is unit-stride:
 *   global_stride        out[i] = in[i * STRIDE]   (strided read, coalesced write: thesis "N C")
 *   global_stride_write  out[i * STRIDE] = in[i]   (coalesced read, strided write: thesis "C N")
 * Each warp request is 32 lanes x 4 B; the strided buffer holds N * STRIDE floats (1.5 GiB at
 * STRIDE = 32, below 2^31 bytes), and no sector is touched by two warps, so no cache can help.
 *
 * Sweep: STRIDE = 1 2 3 4 5 6 7 8 12 16 24 32 (any value >= 1 is valid).
 *
 * Model (sm_90: 32-B sectors, 128-B lines, whole-warp requests, 128-B-aligned warp bases):
 *   sectors per request (strided side) = ceil((31*4*STRIDE + 4) / 32) = min(4 * STRIDE, 32)
 *     -> 4, 8, 12, 16, 20, 24, 28, 32, 32, ... (ncu l1tex__t_sectors_pipe_lsu_mem_global_op_{ld,st}
 *        / ..._requests_...; the coalesced side stays at 4);
 *   DRAM bytes per useful byte on the strided side = min(STRIDE, 8) (for STRIDE <= 8 every sector
 *     of the buffer is fetched exactly once; beyond 8 each lane has a sector of its own);
 *   t(STRIDE) ~ t_launch + 4N * (1 + min(STRIDE, 8)) / BW       (bandwidth-bound),
 *     i.e. at most 4.5x the STRIDE = 1 time (8x for the strided side alone). With BW ~ 2.85 TB/s
 *     (measured copy on the H100): STRIDE 1 ~ 35 us, STRIDE >= 8 ~ 160 us for N = 12 Mi.
 *   Flat from 8 to 32 unless DRAM fetches more than one sector per access (a rise between 8
 *   and 16 would reveal a 64-B fetch granularity). The strided write may cost more than the read
 *   (partial-sector writes; the thesis found C N worse than N C: 5.5x vs 4.0x on the GTX280).
 *   Thesis-era rule (CC 1.1, half-warps): any STRIDE > 1 gives 16 transactions per half-warp.
 */
#ifndef STRIDE
#define STRIDE 1
#endif
#ifndef N
#define N (12 << 20) /* 12 Mi floats: 48 MiB per unit-stride side, more than the 50 MB L2 with both */
#endif
#ifndef BLOCK
#define BLOCK 256
#endif

#pragma carve launch global_stride grid((N + BLOCK - 1) / BLOCK) block(BLOCK)
#pragma carve arg in = float[N * STRIDE] : random(1)
#pragma carve arg out = float[N] : zeros out
#pragma carve arg n = N
__global__ void global_stride(const float *in, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = in[(long long)i * STRIDE];
}

#pragma carve launch global_stride_write grid((N + BLOCK - 1) / BLOCK) block(BLOCK)
#pragma carve arg in = float[N] : random(1)
#pragma carve arg out = float[N * STRIDE] : zeros out
#pragma carve arg n = N
__global__ void global_stride_write(const float *in, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[(long long)i * STRIDE] = in[i];
}
