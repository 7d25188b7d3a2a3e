/* 2-D convolution with x over rows (bench/holdout4/conv2d.cu's spelling as a kernel file): a
 * warp's lanes read w elements apart; remap exchanges x and y. 32x8 blocks on an H x W image,
 * a (2R+1)^2 filter array, zero padding, the bounds test inside the filter loop. */
#ifndef H
#define H 64
#endif
#ifndef W
#define W 64
#endif
#define R 2
#define FW (2 * R + 1)
#define BSX 32
#define BSY 8
#pragma carve launch conv2d_kernel grid((H+31)/32, (W+7)/8) block(32, 8)
#pragma carve arg in = float[H*W] : random(1)
#pragma carve arg filter = float[FW*FW] : random(2)
#pragma carve arg out = float[H*W] : zeros out
#pragma carve arg h = H
#pragma carve arg w = W
#pragma carve tol rel(1e-5)
__global__ void conv2d_kernel(const float *in, const float *filter, float *out, int h, int w)
{
    int row = blockIdx.x * BSX + threadIdx.x;
    int col = blockIdx.y * BSY + threadIdx.y;
    int fi, fj;
    float acc = 0.0f;

    if (row >= h || col >= w)
        return;
    for (fi = -R; fi <= R; fi++) {
        for (fj = -R; fj <= R; fj++) {
            int r = row + fi;
            int c = col + fj;
            if (r >= 0 && r < h && c >= 0 && c < w)
                acc += in[r * w + c] * filter[(fi + R) * FW + (fj + R)];
        }
    }
    out[row * w + col] = acc;
}
