/* shared_conflict: shared-memory bank conflicts of 32-bit accesses versus the conflict degree.
 *
 * Thesis: Cornelis (VUB 2010), Ch. 4 "Parallel Data Access", §4.1 (16 banks x 4 B per half-warp
 * on CC 1.x; same-bank words serialize, one word read by many is a broadcast), §4.2 Listing 4.2
 * (the shared copy: tile loaded once, then sharedOut[..] = sharedIn[..] 100 times, one side
 * transposed for maximal conflicts) and Table 4.2 (U/C x U/C: 4.25, 4.25, 7.55 on the GTX280).
 * The thesis measured only the unconflicted and the maximal (16-way) case; this is the
 * conflict-degree sweep its extraction asks for, on sm_90's 32 banks.
 *
 * What is measured: each block copies a 1024-word table (from `in`) into shared memory once, then
 * each warp repeats ITERS times the copy dst[lane * WS] = src[lane * RS] through volatile
 * pointers (every iteration is a real LDS + STS, as the 2010 compiler emitted them). src is the
 * block's table, read by all warps; dst is a private 1024-word region per warp (no two warps write
 * the same word). Three kernels (the thesis's C U, U C, C C combinations):
 *   shared_conflict        RS = WS = CONFLICT   (both sides conflicted: thesis "C C")
 *   shared_conflict_read   RS = CONFLICT, WS = 1 (thesis "C U")
 *   shared_conflict_write  RS = 1, WS = CONFLICT (thesis "U C")
 * Shared memory per block is fixed (9 x 4 KiB + 1 KiB reserved -> 6 blocks, 48 warps per SM) for
 * every CONFLICT <= 33, so occupancy does not move with the sweep. BLOCK must be 256 (the regions
 * are sized for 8 warps).
 *
 * Sweep: CONFLICT = 0 1 2 3 4 5 6 7 8 9 12 15 16 17 24 31 32 33 (0..33 keep the occupancy fixed;
 * larger values are valid with a larger region). 0 = every lane on one word: a broadcast read,
 * and in shared_conflict a single-word write of one common value. shared_conflict_write sweeps
 * from 1: at 0 its 32 lanes would write 32 different values to one word, and which lane's value
 * survives is unspecified on the GPU (carve keeps the last lane's), so its output is not
 * reproducible.
 *
 * Model (sm_90: 32 banks x 4 B, bank = word mod 32, one wavefront per distinct word per bank):
 *   conflict degree d(S) = gcd(S, 32) for S >= 1 (S = 33 gives 1), d(0) = 1 (broadcast);
 *   wavefronts per instruction = d (ncu l1tex__data_pipe_lsu_wavefronts_mem_shared_op_{ld,st}
 *   / smsp__inst_executed_op_shared_{ld,st}); bank conflicts = d - 1 per instruction.
 *   Shared-bandwidth-bound (1 wavefront per clock per SM; 48 warps keep it busy):
 *     t ~ t_0 + ITERS * warps_per_SM * (d_read + d_write) / f_clk,
 *   so shared_conflict is linear in d with slope 2 units, the one-sided kernels (d + 1) units:
 *   C C / U U = d, C U / U U = U C / U U = (d + 1) / 2 (the additive model the thesis's Table 4.2
 *   suggests: 16-way predicted 8.5x one side, 16x both; it measured about half).
 *   Defaults: 3168 blocks = 4 waves x 132 SMs x 6 blocks; 192 warps per SM x 256 iterations x 2
 *   wavefronts = 98 K clocks ~ 0.05 ms at d = 1, ~1.6 ms at d = 32 (both sides).
 */
#ifndef CONFLICT
#define CONFLICT 1
#endif
#ifndef ITERS
#define ITERS 256
#endif
#ifndef BLOCKS
#define BLOCKS (132 * 6 * 4) /* 4 full waves on an H100 at 6 blocks per SM */
#endif
#define BLOCK 256
#define WARPS (BLOCK / 32)
/* words per region: must hold word 31 * stride, i.e. 31 * 33 + 1 = 1024 for strides up to 33 */
#define REGION (31 * (CONFLICT > 33 ? CONFLICT : 33) + 1)

/* ITERS copies dst[w] = src[r] through volatile pointers; returns the last value written */
__device__ float copy_loop(volatile float *src, volatile float *dst, int r, int w, int iters)
{
    for (int k = 0; k < iters; k++)
        dst[w] = src[r];
    return dst[w];
}

#pragma carve launch shared_conflict grid(BLOCKS) block(BLOCK)
#pragma carve arg in = float[REGION] : random(1)
#pragma carve arg out = float[BLOCKS * BLOCK] : zeros out
#pragma carve arg iters = ITERS
__global__ void shared_conflict(const float *in, float *out, int iters)
{
    __shared__ float s_in[REGION];
    __shared__ float s_out[WARPS * REGION];
    int lane = threadIdx.x & 31;
    int warp = threadIdx.x >> 5;
    for (int j = threadIdx.x; j < REGION; j += BLOCK)
        s_in[j] = in[j];
    __syncthreads();
    float v = copy_loop(s_in, s_out + warp * REGION, lane * CONFLICT, lane * CONFLICT, iters);
    out[blockIdx.x * BLOCK + threadIdx.x] = v;
}

#pragma carve launch shared_conflict_read grid(BLOCKS) block(BLOCK)
#pragma carve arg in = float[REGION] : random(1)
#pragma carve arg out = float[BLOCKS * BLOCK] : zeros out
#pragma carve arg iters = ITERS
__global__ void shared_conflict_read(const float *in, float *out, int iters)
{
    __shared__ float s_in[REGION];
    __shared__ float s_out[WARPS * REGION];
    int lane = threadIdx.x & 31;
    int warp = threadIdx.x >> 5;
    for (int j = threadIdx.x; j < REGION; j += BLOCK)
        s_in[j] = in[j];
    __syncthreads();
    float v = copy_loop(s_in, s_out + warp * REGION, lane * CONFLICT, lane, iters);
    out[blockIdx.x * BLOCK + threadIdx.x] = v;
}

#pragma carve launch shared_conflict_write grid(BLOCKS) block(BLOCK)
#pragma carve arg in = float[REGION] : random(1)
#pragma carve arg out = float[BLOCKS * BLOCK] : zeros out
#pragma carve arg iters = ITERS
__global__ void shared_conflict_write(const float *in, float *out, int iters)
{
    __shared__ float s_in[REGION];
    __shared__ float s_out[WARPS * REGION];
    int lane = threadIdx.x & 31;
    int warp = threadIdx.x >> 5;
    for (int j = threadIdx.x; j < REGION; j += BLOCK)
        s_in[j] = in[j];
    __syncthreads();
    float v = copy_loop(s_in, s_out + warp * REGION, lane, lane * CONFLICT, iters);
    out[blockIdx.x * BLOCK + threadIdx.x] = v;
}
