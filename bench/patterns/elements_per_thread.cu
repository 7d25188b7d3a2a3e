/* elements_per_thread: data partitioning and mapping, elements per thread at fixed total work.
 *
 * Thesis: Cornelis (VUB 2010), Ch. 6 "Data Partitioning and Mapping", §6.2 third kernel (fixed
 * 256-thread block, tile size varied so a thread handles fewer or more than one element), Fig. 6.3
 * ("letting one thread process more than one element seems to be more advantageous for compute
 * intensive programs"), §6.3: speedup of 2 elements per thread = 2 t_1 / t_2, t_k the time one SM
 * needs for its blocks with k elements per thread.
 *
 * What is measured: N elements, BLOCK = 256 threads per block, each block owns a tile of
 * 256 * EPT consecutive elements, grid = ceil(N / (256 * EPT)); thread t handles elements
 * tile + t + e * 256, e = 0 .. EPT-1 (every access stays coalesced), each loaded, put through OPS
 * dependent FMAs and stored. The loads are not hoisted above earlier stores (in and out may alias),
 * so a thread has one element in flight at a time, as in the thesis's naive loop. Two kernels:
 *   elements_per_thread          memory-bound: OPS = 1, N = 16 Mi (128 MiB, ~47 us at 2.85 TB/s)
 *   elements_per_thread_compute  compute-bound: OPS_C = 256, N_C = 8 Mi (~64 us of FMA issue)
 *
 * Sweep: EPT = 1 2 3 4 6 8 12 16 24 32 48 64 (any EPT >= 1 is valid; non-powers of two leave a
 * partial last tile).
 *
 * Model (thesis §6.3, generalized): speedup(k) = k * t_1 / t_k, i.e. t(EPT) = blocks(EPT) / (132 *
 * resident blocks) * t_block(EPT); fewer blocks amortize per-block and per-thread overhead (index
 * arithmetic, block launch), but leave fewer threads in flight:
 *   threads = ceil(N / (256 EPT)) * 256; waves = ceil(blocks / (132 * 8));
 *   EPT = 64: 1024 / 512 blocks, under one full wave (7.8 / 3.9 blocks per SM: the load is uneven
 *   across SMs and the last SMs idle: t ~ max over SMs, not the mean).
 *   elements_per_thread: t ~ 8N / BW while >= ~1 wave of threads is resident (EPT <= 64 here);
 *     memory parallelism = resident threads x 1 load (Little's law), so no gain from EPT, and a
 *     loss once the grid no longer fills every SM.
 *   elements_per_thread_compute: t ~ N * OPS_C / (132 * 128 * f) / (1 - idle fraction), flat until
 *     the grid no longer covers the SMs evenly; small gain from amortized index arithmetic.
 */
#ifndef EPT
#define EPT 1
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
#define BLOCK 256

#pragma carve launch elements_per_thread grid((N + BLOCK * EPT - 1) / (BLOCK * EPT)) block(BLOCK)
#pragma carve arg in = float[N] : random(1)
#pragma carve arg out = float[N] : zeros out
#pragma carve arg n = N
#pragma carve tol rel(1e-5)
__global__ void elements_per_thread(const float *in, float *out, int n)
{
    int base = blockIdx.x * (BLOCK * EPT) + threadIdx.x;
    for (int e = 0; e < EPT; e++) {
        int i = base + e * BLOCK;
        if (i < n)
            out[i] = in[i] * 0.999f + 0.001f;
    }
}

#pragma carve launch elements_per_thread_compute grid((N_C + BLOCK * EPT - 1) / (BLOCK * EPT)) block(BLOCK)
#pragma carve arg in = float[N_C] : random(1)
#pragma carve arg out = float[N_C] : zeros out
#pragma carve arg n = N_C
#pragma carve tol rel(1e-5)
__global__ void elements_per_thread_compute(const float *in, float *out, int n)
{
    int base = blockIdx.x * (BLOCK * EPT) + threadIdx.x;
    for (int e = 0; e < EPT; e++) {
        int i = base + e * BLOCK;
        if (i < n) {
            float x = in[i];
            for (int k = 0; k < OPS_C; k++)
                x = x * 0.999f + 0.001f;
            out[i] = x;
        }
    }
}
