/* scan_v1 (family scan): per-tile exclusive scan (TILE = 1024, one tile per block, output as
 * scan_v0), Hillis-Steele in shared memory with a double buffer (GPU Gems 3, ch. 39, Example
 * 39-1; Cornelis Ch. 7, data access fixed).
 *
 * What changes from scan_v0: the 10 steps ping-pong between two 1024-int shared buffers (8 KB), so
 * each step is one shared read pair, one shared write and ONE barrier, and global memory is read
 * and written once. Still O(n log n) work and 1024-thread blocks.
 *
 * Expected effect: much faster than scan_v0 (global passes gone, half the barriers); on an H100
 * probably within 2x of the memory time, limited by barriers and the 10 x 1024 shared steps.
 * TILE: power of two, 64..1024, same in the whole family.
 *
 * Measured on an H200 (carve bench --verify, median of 20, default size, 2026-11-22):
 * 0.0293 ms, 3rd of 5 in the family (1.48x the fastest).
 */
#ifndef N
#define N (1 << 22)
#endif
#ifndef TILE
#define TILE 1024
#endif

#pragma carve launch scan_v1 grid((N+TILE-1)/TILE) block(TILE)
#pragma carve arg in = int[N] : random(1)
#pragma carve arg out = int[(N+TILE-1)/TILE*TILE] : zeros out
#pragma carve arg sums = int[(N+TILE-1)/TILE] : zeros out
#pragma carve arg n = N
#pragma carve work flops(1.0*N) bytes(4.0*N + 4.0*((N+TILE-1)/TILE*TILE) + 4.0*((N+TILE-1)/TILE))
__global__ void scan_v1(const int *in, int *out, int *sums, int n)
{
    __shared__ int temp[2 * TILE];
    int tid = threadIdx.x;
    int i = blockIdx.x * TILE + tid;
    int pout = 0, pin = 1;
    temp[tid] = (tid > 0 && i - 1 < n) ? in[i - 1] : 0;  /* shifted: inclusive scan = exclusive */
    __syncthreads();
    for (int d = 1; d < TILE; d *= 2) {
        pout = 1 - pout;
        pin = 1 - pout;
        if (tid >= d)
            temp[pout * TILE + tid] = temp[pin * TILE + tid] + temp[pin * TILE + tid - d];
        else
            temp[pout * TILE + tid] = temp[pin * TILE + tid];
        __syncthreads();
    }
    out[i] = temp[pout * TILE + tid];
    if (tid == TILE - 1)
        sums[blockIdx.x] = temp[pout * TILE + tid] + ((i < n) ? in[i] : 0);
}
