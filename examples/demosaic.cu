/* demosaic: naive bilinear demosaicing of an RGGB Bayer mosaic into R, G and B planes.
 * raw is the H x W mosaic with a one-pixel border, (H+2) x (W+2) row-major: image pixel (y, x)
 * is raw[(y+1)*(W+2) + x+1]. Site colours: even row / even column red, odd / odd blue, the rest
 * green. At each pixel the missing colours are the mean of the nearest samples of that colour
 * (the 4 edge neighbours, the 4 corner neighbours, or a horizontal or vertical pair).
 *
 * Source: Yang et al., PLDI 2010, Table 1 ("demosaicing", 1k x 1k to 4k x 4k): the release's
 * naive kernel gathers the 3x3 neighbourhood from global memory and calls cal() on it.
 *
 * Naive because: one thread per pixel, global memory only. Each thread loads its whole 3x3
 * neighbourhood, so every input pixel is fetched 9 times (no shared-memory tile with an apron),
 * and the colour-site test depends on the parity of idx and idy, so every warp (two rows of a
 * 16 x 16 block) diverges into four paths. */
#ifndef H
#define H 4096
#endif
#ifndef W
#define W 4096
#endif

#pragma carve launch demosaic grid((W+15)/16, (H+15)/16) block(16, 16)
#pragma carve arg raw = float[(H+2)*(W+2)] : random(1)
#pragma carve arg R = float[H*W] : zeros out
#pragma carve arg G = float[H*W] : zeros out
#pragma carve arg B = float[H*W] : zeros out
#pragma carve arg h = H
#pragma carve arg w = W
#pragma carve tol rel(1e-6)
#pragma carve baseline copy(8*H*W)
__global__ void demosaic(const float *raw, float *R, float *G, float *B, int h, int w)
{
    int idx = blockIdx.x * blockDim.x + threadIdx.x;   /* image column */
    int idy = blockIdx.y * blockDim.y + threadIdx.y;   /* image row */
    if (idx < w && idy < h) {
        int pw = w + 2;                        /* row pitch of raw */
        int c = (idy + 1) * pw + (idx + 1);    /* centre of the 3x3 window */
        float nw = raw[c - pw - 1], nn = raw[c - pw], ne = raw[c - pw + 1];
        float ww = raw[c - 1],      cc = raw[c],      ee = raw[c + 1];
        float sw = raw[c + pw - 1], ss = raw[c + pw], se = raw[c + pw + 1];
        float r, g, b;
        if (idy % 2 == 0 && idx % 2 == 0) {          /* red site */
            r = cc;
            g = (nn + ww + ee + ss) * 0.25f;
            b = (nw + ne + sw + se) * 0.25f;
        } else if (idy % 2 == 1 && idx % 2 == 1) {   /* blue site */
            r = (nw + ne + sw + se) * 0.25f;
            g = (nn + ww + ee + ss) * 0.25f;
            b = cc;
        } else if (idy % 2 == 0) {                   /* green site on a red row */
            r = (ww + ee) * 0.5f;
            g = cc;
            b = (nn + ss) * 0.5f;
        } else {                                     /* green site on a blue row */
            r = (nn + ss) * 0.5f;
            g = cc;
            b = (ww + ee) * 0.5f;
        }
        R[idy * w + idx] = r;
        G[idy * w + idx] = g;
        B[idy * w + idx] = b;
    }
}
