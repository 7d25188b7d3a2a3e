/* scan_v2 (family scan): per-tile exclusive scan (TILE = 1024, one tile per block, output as
 * scan_v0), Blelloch's work-efficient up-sweep / down-sweep in shared memory (GPU Gems 3, ch. 39,
 * Example 39-2; Cornelis Ch. 7, mapping fixed: 2 elements per thread).
 *
 * What changes from scan_v1: TILE/2 = 512 threads, each loading 2 elements (tid and tid + 512,
 * coalesced) into one 4 KB shared array; a reduce tree (up-sweep, 10 levels) and a distribution
 * tree (down-sweep, 10 levels): O(n) work instead of O(n log n), but 2 log n barriers, fewer
 * active threads per level, and tree accesses at stride 2^k words: up to 16-way bank conflicts
 * at the middle levels (fixed by scan_v3).
 *
 * Expected effect: faster than scan_v1 in work, but the bank conflicts and 20 barriers eat much of
 * it; roughly on par with or somewhat faster than scan_v1 on an H100. TILE as scan_v0.
 *
 * Measured on an H200 (carve bench --verify, median of 20, default size, 2026-11-22):
 * 0.0477 ms, 5th of 5 in the family (2.41x the fastest):
 * slower than scan_v1 and about as slow as scan_v0, against the expectation above (at
 * N = 2^24: v2 0.166 ms, v0 0.171 ms, v1 0.114 ms).
 */
#ifndef N
#define N (1 << 22)
#endif
#ifndef TILE
#define TILE 1024
#endif

#pragma carve launch scan_v2 grid((N+TILE-1)/TILE) block(TILE/2)
#pragma carve arg in = int[N] : random(1)
#pragma carve arg out = int[(N+TILE-1)/TILE*TILE] : zeros out
#pragma carve arg sums = int[(N+TILE-1)/TILE] : zeros out
#pragma carve arg n = N
#pragma carve work flops(1.0*N) bytes(4.0*N + 4.0*((N+TILE-1)/TILE*TILE) + 4.0*((N+TILE-1)/TILE))
__global__ void scan_v2(const int *in, int *out, int *sums, int n)
{
    __shared__ int temp[TILE];
    int tid = threadIdx.x;
    int base = blockIdx.x * TILE;
    int ai = tid, bi = tid + TILE / 2;
    int offset = 1;
    temp[ai] = (base + ai < n) ? in[base + ai] : 0;
    temp[bi] = (base + bi < n) ? in[base + bi] : 0;
    for (int d = TILE >> 1; d > 0; d >>= 1) {      /* up-sweep */
        __syncthreads();
        if (tid < d) {
            int a = offset * (2 * tid + 1) - 1;
            int b = offset * (2 * tid + 2) - 1;
            temp[b] += temp[a];
        }
        offset *= 2;
    }
    if (tid == 0) {                                /* root = tile total */
        sums[blockIdx.x] = temp[TILE - 1];
        temp[TILE - 1] = 0;
    }
    for (int d = 1; d < TILE; d *= 2) {            /* down-sweep */
        offset >>= 1;
        __syncthreads();
        if (tid < d) {
            int a = offset * (2 * tid + 1) - 1;
            int b = offset * (2 * tid + 2) - 1;
            int t = temp[a];
            temp[a] = temp[b];
            temp[b] += t;
        }
    }
    __syncthreads();
    out[base + ai] = temp[ai];
    out[base + bi] = temp[bi];
}
