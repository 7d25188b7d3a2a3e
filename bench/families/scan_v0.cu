/* scan_v0 (family scan): per-tile exclusive prefix sum of ints, TILE = 1024 elements per tile,
 * one tile per block: out[i] = sum of in[j] for j < i in the same tile, sums[b] = total of tile b
 * (elements past N count as 0; out is padded to whole tiles). A full scan would add the scan of
 * sums[] to each tile in a second pass (not part of the family). Reference variant.
 *
 * What it is: Cornelis (VUB 2010) Ch. 7 V0 style, naive: Hillis-Steele done in global memory,
 * 1024 threads, one element per thread. The tile is shifted by one on load (out[i] = in[i-1]) so
 * the inclusive Hillis-Steele scan of it is the exclusive scan; each of the log2(1024) = 10 steps
 * reads out[i-d], hits a barrier, adds into out[i], hits another barrier. Work O(n log n).
 *
 * Expected effect: the slowest of the family: 10 read-modify-write passes over the tile through
 * L1/L2 (global memory written and re-read inside the block), 20 barriers of 1024-thread blocks
 * (at most 2 resident blocks per SM), and log n times the work of Blelloch. TILE must be a power
 * of two, 64..1024, the same in every variant of the family.
 *
 * Measured on an H200 (carve bench --verify, median of 20, default size, 2026-11-22):
 * 0.0458 ms, 4th of 5 in the family (2.31x the fastest).
 */
#ifndef N
#define N (1 << 22)
#endif
#ifndef TILE
#define TILE 1024
#endif

#pragma carve launch scan_v0 grid((N+TILE-1)/TILE) block(TILE)
#pragma carve arg in = int[N] : random(1)
#pragma carve arg out = int[(N+TILE-1)/TILE*TILE] : zeros out
#pragma carve arg sums = int[(N+TILE-1)/TILE] : zeros out
#pragma carve arg n = N
#pragma carve work flops(1.0*N) bytes(4.0*N + 4.0*((N+TILE-1)/TILE*TILE) + 4.0*((N+TILE-1)/TILE))
__global__ void scan_v0(const int *in, int *out, int *sums, int n)
{
    int tid = threadIdx.x;
    int i = blockIdx.x * TILE + tid;
    out[i] = (tid > 0 && i - 1 < n) ? in[i - 1] : 0;   /* shifted: inclusive scan = exclusive */
    __syncthreads();
    for (int d = 1; d < TILE; d *= 2) {
        int t = (tid >= d) ? out[i - d] : 0;
        __syncthreads();
        if (tid >= d)
            out[i] += t;
        __syncthreads();
    }
    if (tid == TILE - 1)
        sums[blockIdx.x] = out[i] + ((i < n) ? in[i] : 0);
}
