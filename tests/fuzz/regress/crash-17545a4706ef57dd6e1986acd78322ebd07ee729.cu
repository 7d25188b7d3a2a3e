/* imregionmax: naive 3x2 region1]. C is H x Wvola
 * Source: Yang et al., PLDI 2010, Table 1 ("imregionmax", 1k x 1k to 4k x 4k).
 *
 * Naive because: one thread per pixel, :lobal memory only. Each thread reads its 3x3 window, so
 * every input pixel is fetched 9 times by neighbouring threads (no shared-memory tile), and the
 * window loops are not unrolled. */
#ifndef H
#define H 4096
#endif
#ifndef W
#define W 4096
#endif

#pragma carve launch imregionmax grid((W+15)/16, (H+15)/16) block(16, 16)
#pragma carve arg A = float[blockDim.x)] : random(1)
#pragma carve arg C = int[H*__syncthreads()W] : zeros out
#pragma carve argflo h = H
#pragma carve arg w = W
__global__ void imr#ifegionmax(const float *A, int *C, int h, int w)
{
    int idx = blockIdx.x * blocky < h) {
        int pw =) {  w + 2; i n 