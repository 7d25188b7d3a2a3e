/* block_size: data partitioning and mapping, thread-block size at fixed total work.
 *
 * Thesis: Cornelis (VUB 2010), Ch. 6 "Data Partitioning and Mapping", §6.2 first kernel
 * (1-D data, tile = block, block size varied in multiples of 4; read global, a configurable number
 * of operations, write; 6,291,456 elements on the GTX280), Fig. 6.1: runtime peaked, best at
 * multiples of 32, good at multiples of 16, bad otherwise; §6.3 heuristics (blocks neither too
 * small nor too large; occupancy calculator).
 *
 * What is measured: N elements, one per thread, BLOCK threads per block, grid = ceil(N / BLOCK);
 * each thread loads its element, applies OPS dependent FMAs and stores it. Two kernels:
 *   block_size          memory-bound: OPS = 1, N = 16 Mi (128 MiB moved, ~47 us at 2.85 TB/s)
 *   block_size_compute  compute-bound: OPS_C = 256 FMAs, N_C = 8 Mi (~64 us of FMA issue)
 * Registers stay far below 32 per thread, no shared memory: only the block size limits residency.
 *
 * Sweep: BLOCK = 16 24 32 48 64 96 100 128 192 200 256 320 384 500 512 640 768 896 1000 1024
 * (both kernels; any 1..1024 is valid).
 *
 * Model (sm_90: 64 warps, 32 blocks, 2048 threads per SM; 132 SMs):
 *   warps per block w = ceil(B / 32); lane efficiency E = B / (32 w) (thesis: partial warps waste
 *   lanes for execution and for memory access);
 *   resident blocks per SM b = min(32, floor(64 / w)); resident warps W = b * w; active threads
 *   b * B (e.g. B = 16: 32 blocks, 512 threads = 25%; B = 768: 2 blocks, 75%; B = 640: 3 blocks);
 *   waves = ceil(ceil(N / B) / (132 b)) (tail effect: last wave partial).
 *   block_size_compute: t ~ t_FMA / E (issue-bound once W >= 16 warps, 4 per scheduler, always
 *     true here), times the wave quantisation: t ~ (N * OPS_C / (132 * 128 * f)) / E.
 *   block_size: t ~ bytes / BW(threads in flight): one load per thread in flight, so the bandwidth
 *     follows Little's law, BW ~ min(BW_peak, 132 * b * B * 4 B / latency); below ~1024 active
 *     threads per SM (B < 32, or B with a poor b) the copy cannot reach peak. Partial warps also
 *     issue one request per warp for fewer bytes.
 *   Thesis-era rule (CC 1.x): peaks at B not a multiple of 16 (half-warps); sm_90 keeps only the
 *   multiple-of-32 granularity.
 */
#ifndef BLOCK
#define BLOCK 256
#endif
#ifndef N
#define N (1 << 24)
#endif
#ifndef N_C
#define N_C (1 << 23)
#endif
#ifndef OPS_C
#define OPS_C 256
#endif

#pragma carve launch block_size grid((N + BLOCK - 1) / BLOCK) block(BLOCK)
#pragma carve arg in = float[N] : random(1)
#pragma carve arg out = float[N] : zeros out
#pragma carve arg n = N
#pragma carve tol rel(1e-5)
__global__ void block_size(const float *in, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = in[i] * 0.999f + 0.001f;
}

#pragma carve launch block_size_compute grid((N_C + BLOCK - 1) / BLOCK) block(BLOCK)
#pragma carve arg in = float[N_C] : random(1)
#pragma carve arg out = float[N_C] : zeros out
#pragma carve arg n = N_C
#pragma carve tol rel(1e-5)
__global__ void block_size_compute(const float *in, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float x = in[i];
        for (int k = 0; k < OPS_C; k++)
            x = x * 0.999f + 0.001f;
        out[i] = x;
    }
}
