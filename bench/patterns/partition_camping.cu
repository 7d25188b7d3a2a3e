/* partition_camping: naive column access over matrix widths (partition camping).
 *
 * Thesis: Cornelis (VUB 2010), Ch. 4 "Parallel Data Access": §4.2 Fig. 4.4 / Table 4.1 (global
 * copy of a width x width matrix with 16 x 16 blocks, read and/or write side made uncoalesced by
 * swapping threadIdx.x and threadIdx.y; uncoalesced writes show runtime peaks every 128 elements
 * of width on the 8500GT and every 256 on the GTX280) and §4.3.2 (Listing 4.3, the first transpose
 * kernel, "strongly peaked" over width, Fig. 4.7): concurrently running blocks write output blocks
 * in one block-row, which share a 256-B DRAM partition at certain widths; "the distance between
 * two peaks can be used to infer the global memory layout".
 *
 * What is measured: four kernels over a WIDTH x WIDTH float matrix, 16 x 16 blocks (thesis), one
 * element per thread, with the thesis's C (coalesced) / N (column walk, rows 4*WIDTH B apart):
 *   partition_copy          out[r][c] = in[r][c]   read C, write C (reference, Listing 4.1)
 *   partition_camping       out[c][r] = in[r][c]   read C, write N (Listing 4.3, naive transpose)
 *   partition_camping_read  out[r][c] = in[c][r]   read N, write C
 *   partition_camping_both  out[c][r] = in[c][r]   read N, write N (a copy with swapped roles)
 * (r = 16*blockIdx.y + threadIdx.y, c = 16*blockIdx.x + threadIdx.x.) Plot t / WIDTH^2 (time per
 * element) against WIDTH: camping shows as periodic peaks on top of the uncoalescing cost, and
 * the per-width ratio to partition_copy gives the thesis's Table 4.1 slowdowns.
 *
 * Sweep: WIDTH = 1024 .. 8192 step 512, plus 3840 .. 4352 step 64 and 4095, 4097 (25 widths;
 * any WIDTH >= 1 is valid; widths not a multiple of 16 leave partial edge blocks). A camping
 * period shows as a difference between the multiples of 512 and the widths in between. Below WIDTH ~ 2560 both
 * matrices (2 x 4 WIDTH^2 B) fit in the 50 MB L2 and repeated launches run from L2.
 *
 * Model:
 *   Coalescing (sm_90, per warp = 2 rows of 16 threads): C side 2 x 64 B = 4 sectors per request;
 *   N side 16 distinct rows x 8 B = 16 sectors per request, each sector completed by 4 warps of the
 *   block (the L2 merges them, so DRAM bytes stay ~4 WIDTH^2 per side when the lines survive).
 *   Camping (thesis-era, P partitions of 256 B interleaved by address): rows R = 4*WIDTH bytes
 *   apart fall in P / gcd(P, (R/256) mod P) distinct partitions (gcd(P, 0) = P: one partition)
 *   when R is a multiple of 256, slowdown ~ P / distinct; the 8500GT (P = 2) peaks at WIDTH
 *   multiples of 128, the GTX280 (P = 8) partly at multiples of 256 and fully at 512.
 *   sm_90 prediction: no camping period. Addresses are hashed over the L2 slices and HBM3 channels
 *   (not a power of two), so t / WIDTH^2 should be flat in WIDTH (within a few %) for all four
 *   kernels once the matrices exceed L2; only the C/N cost remains (the anchors' H100 probe: naive
 *   2048^2 transpose 73 us, 4.2x the padded shared-tile transpose's 17.3 us). WIDTH = 8192:
 *   ~0.2 ms (copy, 512 MiB) to ~1.2 ms (naive transpose, scaled from 73 us x 16).
 *   A residual peak at powers of two would mean the hash leaves some camping.
 */
#ifndef WIDTH
#define WIDTH 4096
#endif
#define TILE 16

#pragma carve launch partition_copy grid((WIDTH + TILE - 1) / TILE, (WIDTH + TILE - 1) / TILE) block(TILE, TILE)
#pragma carve arg in = float[WIDTH * WIDTH] : random(1)
#pragma carve arg out = float[WIDTH * WIDTH] : zeros out
#pragma carve arg width = WIDTH
__global__ void partition_copy(const float *in, float *out, int width)
{
    int r = TILE * blockIdx.y + threadIdx.y;
    int c = TILE * blockIdx.x + threadIdx.x;
    if (r < width && c < width)
        out[r * width + c] = in[r * width + c];
}

#pragma carve launch partition_camping grid((WIDTH + TILE - 1) / TILE, (WIDTH + TILE - 1) / TILE) block(TILE, TILE)
#pragma carve arg in = float[WIDTH * WIDTH] : random(1)
#pragma carve arg out = float[WIDTH * WIDTH] : zeros out
#pragma carve arg width = WIDTH
__global__ void partition_camping(const float *in, float *out, int width)
{
    int r = TILE * blockIdx.y + threadIdx.y;
    int c = TILE * blockIdx.x + threadIdx.x;
    if (r < width && c < width)
        out[c * width + r] = in[r * width + c];
}

#pragma carve launch partition_camping_read grid((WIDTH + TILE - 1) / TILE, (WIDTH + TILE - 1) / TILE) block(TILE, TILE)
#pragma carve arg in = float[WIDTH * WIDTH] : random(1)
#pragma carve arg out = float[WIDTH * WIDTH] : zeros out
#pragma carve arg width = WIDTH
__global__ void partition_camping_read(const float *in, float *out, int width)
{
    int r = TILE * blockIdx.y + threadIdx.y;
    int c = TILE * blockIdx.x + threadIdx.x;
    if (r < width && c < width)
        out[r * width + c] = in[c * width + r];
}

#pragma carve launch partition_camping_both grid((WIDTH + TILE - 1) / TILE, (WIDTH + TILE - 1) / TILE) block(TILE, TILE)
#pragma carve arg in = float[WIDTH * WIDTH] : random(1)
#pragma carve arg out = float[WIDTH * WIDTH] : zeros out
#pragma carve arg width = WIDTH
__global__ void partition_camping_both(const float *in, float *out, int width)
{
    int r = TILE * blockIdx.y + threadIdx.y;
    int c = TILE * blockIdx.x + threadIdx.x;
    if (r < width && c < width)
        out[c * width + r] = in[c * width + r];
}
