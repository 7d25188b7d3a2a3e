/* scan_v4 (family scan): per-tile exclusive scan (TILE = 1024, one tile per block, output as
 * scan_v0) with warp shuffles: each warp scans its 32 values in registers with 5
 * __shfl_up_sync steps (inclusive Kogge-Stone), lane 31 writes the warp total to shared memory,
 * warp 0 scans the TILE/32 warp totals the same way, and every thread adds the total of the
 * warps before it and subtracts its own input (inclusive -> exclusive).
 *
 * What changes from scan_v3: TILE threads, one element each; no shared-memory tree at all (32 +
 * 32 shared words), 2 barriers instead of 20, no bank conflicts, all lanes active in the
 * shuffles.
 *
 * Expected effect: the fastest of the family, near the memory time (read + write 16 MB each at
 * N = 2^22). TILE: a multiple of 32, at most 1024 (the warp totals fit one warp).
 *
 * Measured on an H200 (carve bench --verify, median of 20, default size, 2026-11-22):
 * 0.0198 ms, 1st of 5 in the family (1.00x the fastest).
 */
#ifndef N
#define N (1 << 22)
#endif
#ifndef TILE
#define TILE 1024
#endif

#pragma carve launch scan_v4 grid((N+TILE-1)/TILE) block(TILE)
#pragma carve arg in = int[N] : random(1)
#pragma carve arg out = int[(N+TILE-1)/TILE*TILE] : zeros out
#pragma carve arg sums = int[(N+TILE-1)/TILE] : zeros out
#pragma carve arg n = N
#pragma carve work flops(1.0*N) bytes(4.0*N + 4.0*((N+TILE-1)/TILE*TILE) + 4.0*((N+TILE-1)/TILE))
__global__ void scan_v4(const int *in, int *out, int *sums, int n)
{
    __shared__ int warp_total[32];
    int tid = threadIdx.x;
    int lane = tid & 31, warp = tid >> 5;
    int i = blockIdx.x * TILE + tid;
    int x = (i < n) ? in[i] : 0;
    int v = x;
    for (int o = 1; o < 32; o *= 2) {              /* inclusive scan within the warp */
        int y = __shfl_up_sync(0xffffffffu, v, o);
        if (lane >= o)
            v += y;
    }
    if (lane == 31)
        warp_total[warp] = v;
    __syncthreads();
    if (warp == 0) {                               /* inclusive scan of the warp totals */
        int w = (lane < TILE / 32) ? warp_total[lane] : 0;
        for (int o = 1; o < 32; o *= 2) {
            int y = __shfl_up_sync(0xffffffffu, w, o);
            if (lane >= o)
                w += y;
        }
        if (lane < TILE / 32)
            warp_total[lane] = w;
    }
    __syncthreads();
    int prefix = (warp > 0) ? warp_total[warp - 1] : 0;
    out[i] = prefix + v - x;
    if (tid == TILE - 1)
        sums[blockIdx.x] = prefix + v;
}
