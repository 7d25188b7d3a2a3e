/* scan_v3 (family scan): per-tile exclusive scan (TILE = 1024, one tile per block, output as
 * scan_v0), Blelloch with padding against bank conflicts (GPU Gems 3, ch. 39, 39.2.3; Cornelis
 * Ch. 7, data access fixed).
 *
 * What changes from scan_v2: every shared index k is shifted by CONFLICT_FREE_OFFSET(k) = k >> 5
 * (one padding word every 32), so the tree's strided accesses 2^k * (2 tid + 1) - 1 land in
 * distinct banks; the shared array grows to TILE + TILE/32 ints. A shift and an add per access.
 * (GPU Gems' printed macro also adds k >> 10; the single shift is the corrected form.)
 *
 * Expected effect: faster than scan_v2 (the 2- to 16-way conflicts of the middle levels go; the
 * top levels have fewer than 32 active threads and are latency/barrier-bound anyway), ~1.2-1.5x.
 * TILE as scan_v0.
 *
 * Measured on an H200 (carve bench --verify, median of 20, default size, 2026-11-22):
 * 0.0242 ms, 2nd of 5 in the family (1.22x the fastest).
 */
#ifndef N
#define N (1 << 22)
#endif
#ifndef TILE
#define TILE 1024
#endif
#define LOG_NUM_BANKS 5
#define CONFLICT_FREE_OFFSET(k) ((k) >> LOG_NUM_BANKS)

#pragma carve launch scan_v3 grid((N+TILE-1)/TILE) block(TILE/2)
#pragma carve arg in = int[N] : random(1)
#pragma carve arg out = int[(N+TILE-1)/TILE*TILE] : zeros out
#pragma carve arg sums = int[(N+TILE-1)/TILE] : zeros out
#pragma carve arg n = N
#pragma carve work flops(1.0*N) bytes(4.0*N + 4.0*((N+TILE-1)/TILE*TILE) + 4.0*((N+TILE-1)/TILE))
__global__ void scan_v3(const int *in, int *out, int *sums, int n)
{
    __shared__ int temp[TILE + TILE / 32];
    int tid = threadIdx.x;
    int base = blockIdx.x * TILE;
    int ai = tid, bi = tid + TILE / 2;
    int offset = 1;
    temp[ai + CONFLICT_FREE_OFFSET(ai)] = (base + ai < n) ? in[base + ai] : 0;
    temp[bi + CONFLICT_FREE_OFFSET(bi)] = (base + bi < n) ? in[base + bi] : 0;
    for (int d = TILE >> 1; d > 0; d >>= 1) {      /* up-sweep */
        __syncthreads();
        if (tid < d) {
            int a = offset * (2 * tid + 1) - 1;
            int b = offset * (2 * tid + 2) - 1;
            a += CONFLICT_FREE_OFFSET(a);
            b += CONFLICT_FREE_OFFSET(b);
            temp[b] += temp[a];
        }
        offset *= 2;
    }
    if (tid == 0) {                                /* root = tile total */
        int r = TILE - 1 + CONFLICT_FREE_OFFSET(TILE - 1);
        sums[blockIdx.x] = temp[r];
        temp[r] = 0;
    }
    for (int d = 1; d < TILE; d *= 2) {            /* down-sweep */
        offset >>= 1;
        __syncthreads();
        if (tid < d) {
            int a = offset * (2 * tid + 1) - 1;
            int b = offset * (2 * tid + 2) - 1;
            a += CONFLICT_FREE_OFFSET(a);
            b += CONFLICT_FREE_OFFSET(b);
            int t = temp[a];
            temp[a] = temp[b];
            temp[b] += t;
        }
    }
    __syncthreads();
    out[base + ai] = temp[ai + CONFLICT_FREE_OFFSET(ai)];
    out[base + bi] = temp[bi + CONFLICT_FREE_OFFSET(bi)];
}
