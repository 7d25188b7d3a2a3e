/* A 3x3 box filter on an H x W image with one thread per pixel on a 1-D grid whose index is split
 * with the row fastest (`row = idx % h; col = idx / h`): neighbouring lanes read pixels w apart.
 * remap transposes the index (thread v computes the original's (v % F)*h + v/F, F = ceil(T/h)),
 * so neighbouring lanes take neighbouring columns. 128-thread blocks; H*W need not divide them. */
#ifndef H
#define H 64
#endif
#ifndef W
#define W 64
#endif
#pragma carve launch box3 grid((H*W+127)/128) block(128)
#pragma carve arg in = float[H*W] : random(1)
#pragma carve arg out = float[H*W] : zeros out
#pragma carve arg h = H
#pragma carve arg w = W
#pragma carve tol rel(1e-5)
__global__ void box3(const float *in, float *out, int h, int w)
{
    int idx = blockIdx.x * blockDim.x + threadIdx.x;
    if (idx >= h * w)
        return;
    int row = idx % h;
    int col = idx / h;
    float s = 0.0f;
    for (int dr = -1; dr <= 1; dr++)
        for (int dc = -1; dc <= 1; dc++) {
            int r = row + dr, c = col + dc;
            if (r >= 0 && r < h && c >= 0 && c < w)
                s += in[r * w + c];
        }
    out[row * w + col] = s * (1.0f / 9.0f);
}
