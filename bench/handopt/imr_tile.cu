#ifndef H
#define H 4096
#endif
#ifndef W
#define W 4096
#endif
#pragma carve launch imregionmax grid((W+31)/32, (H+7)/8) block(32, 8)
#pragma carve arg A = float[(H+2)*(W+2)] : random(1)
#pragma carve arg C = int[H*W] : zeros out
#pragma carve arg h = H
#pragma carve arg w = W
#pragma carve baseline copy(4*H*W)
__global__ void imregionmax(const float *A, int *C, int h, int w)
{
    __shared__ float t[10][35];
    int bx = blockIdx.x * 32, by = blockIdx.y * 8, pw = w + 2;
    for (int i = threadIdx.y * 32 + threadIdx.x; i < 10 * 34; i += 256) {
        int r = i / 34, c = i % 34;
        if (by + r < h + 2 && bx + c < w + 2) t[r][c] = A[(by + r) * pw + bx + c];
    }
    __syncthreads();
    int idx = bx + threadIdx.x, idy = by + threadIdx.y;
    if (idx < w && idy < h) {
        int ty = threadIdx.y + 1, tx = threadIdx.x + 1;
        float v = t[ty][tx];
        int ismax = 1;
        for (int dy = -1; dy <= 1; dy++)
            for (int dx = -1; dx <= 1; dx++)
                if ((dy != 0 || dx != 0) && t[ty + dy][tx + dx] > v)
                    ismax = 0;
        C[idy * w + idx] = ismax;
    }
}
