/* imregionmax: naive 3x3 regional-maximum test, C[y][x] = 1 if pixel (y, x) is not smaller than
 * any of its 8 neighbours, else 0 (as the authors' release computes it, after MATLAB's
 * imregionalmax). A is the H x W image with a one-pixel border, (H+2) x (W+2) row-major: pixel
 * (y, x) is A[(y+1)*(W+2) + x+1]. C is H x W.
 *
 * Source: Yang et al., PLDI 2010, Table 1 ("imregionmax", 1k x 1k to 4k x 4k).
 *
 * Naive because: one thread per pixel, global memory only. Each thread reads its 3x3 window, so
 * every input pixel is fetched 9 times by neighbouring threads (no shared-memory tile), and the
 * window loops are not unrolled. */
#ifndef H
#define H 4096
#endif
#ifndef W
#define W 4096
#endif

#pragma carve launch imregionmax grid((W+15)/16, (H+15)/16) block(16, 16)
#pragma carve arg A = float[(H+2)*(W+2)] : random(1)
#pragma carve arg C = int[H*W] : zeros out
#pragma carve arg h = H
#pragma carve arg w = W
#pragma carve baseline copy(4*H*W)
__global__ void imregionmax(const float *A, int *C, int h, int w)
{
    int idx = blockIdx.x * blockDim.x + threadIdx.x;   /* image column */
    int idy = blockIdx.y * blockDim.y + threadIdx.y;   /* image row */
    if (idx < w && idy < h) {
        int pw = w + 2;                        /* row pitch of A */
        int c = (idy + 1) * pw + (idx + 1);    /* centre of the 3x3 window */
        float v = A[c];
        int ismax = 1;
        for (int dy = -1; dy <= 1; dy++)
            for (int dx = -1; dx <= 1; dx++)
                if ((dy != 0 || dx != 0) && A[c + dy * pw + dx] > v)
                    ismax = 0;
        C[idy * w + idx] = ismax;
    }
}
