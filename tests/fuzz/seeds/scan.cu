/* scan: naive exclusive prefix sum (Blelloch up-sweep / down-sweep) of each TILE-element tile,
 * done entirely in global memory, one thread per element, one tile per block (TILE = blockDim.x,
 * a power of two). out[i] = sum of in[j] for the j < i in the same tile, and sums[b] = the total
 * of tile b. A full scan of the array adds the exclusive scan of sums[] to each tile (a second
 * pass, not part of this kernel). out is padded to a whole number of tiles; elements past N are
 * treated as 0.
 *
 * Source: Cornelis, "Anti-parallel Patterns in Fine-grain Data-parallel Programs" (master's
 * thesis, VUB 2010), Ch. 7, version V0 (Listing 7.1): BLOCK_SIZE = TILE_SIZE = 256, all in
 * global memory, `if (threadIdx.x % d == d-1) out[i] += out[i-d/2]`. Each block touches only its
 * own tile, so __syncthreads is enough and one launch is correct.
 *
 * Naive because (the thesis's anti-patterns, fixed by V1-V4): 17 global-memory passes over the
 * tile separated by barriers (data access; fix: do the sweeps in shared memory), active threads
 * interleaved by `%` so at the upper levels every warp runs with 1 or 2 lanes active (branching;
 * fix: static thread reordering), one element per thread (mapping; fix: 2 per thread), and the
 * down-sweep's reads at i - d/2 are strided. */
#ifndef N
#define N (1 << 24)
#endif
#ifndef TILE
#define TILE 256
#endif

#pragma carve launch scan grid((N+TILE-1)/TILE) block(TILE)
#pragma carve arg in = int[N] : random(1)
#pragma carve arg out = int[(N+TILE-1)/TILE*TILE] : zeros out
#pragma carve arg sums = int[(N+TILE-1)/TILE] : zeros out
#pragma carve arg n = N
__global__ void scan(const int *in, int *out, int *sums, int n)
{
    int tid = threadIdx.x;
    int tile = blockDim.x;
    int i = blockIdx.x * tile + tid;
    int d;

    out[i] = (i < n) ? in[i] : 0;
    __syncthreads();
    for (d = 2; d <= tile; d *= 2) {            /* up-sweep: build the sum tree in place */
        if (tid % d == d - 1)
            out[i] += out[i - d / 2];
        __syncthreads();
    }
    if (tid == tile - 1) {                      /* the root holds the tile total */
        sums[blockIdx.x] = out[i];
        out[i] = 0;
    }
    __syncthreads();
    for (d = tile; d >= 2; d /= 2) {            /* down-sweep */
        if (tid % d == d - 1) {
            int t = out[i - d / 2];
            out[i - d / 2] = out[i];
            out[i] += t;
        }
        __syncthreads();
    }
}
