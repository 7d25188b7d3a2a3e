#ifndef H
#define H 4096
#endif
#ifndef W
#define W 4096
#endif
#pragma carve launch imregionmax grid((W+63)/64, (H+15)/16) block(16, 16)
#pragma carve arg A = float[(H+2)*(W+2)] : random(1)
#pragma carve arg C = int[H*W] : zeros out
#pragma carve arg h = H
#pragma carve arg w = W
#pragma carve baseline copy(4*H*W)
__global__ void imregionmax(const float *__restrict__ A, int *__restrict__ C, int h, int w)
{
    int idy = blockIdx.y * blockDim.y + threadIdx.y;
    int x0 = (blockIdx.x * blockDim.x + threadIdx.x) * 4;
    if (idy >= h || x0 >= w) return;
    int pw = w + 2;
    float r[3][6];
#pragma unroll
    for (int dy = 0; dy < 3; dy++)
#pragma unroll
        for (int j = 0; j < 6; j++)
            r[dy][j] = x0 + j < w + 2 ? A[(idy + dy) * pw + x0 + j] : 0.0f;
    int out[4];
#pragma unroll
    for (int v = 0; v < 4; v++) {
        float val = r[1][v + 1];
        int ismax = 1;
#pragma unroll
        for (int dy = 0; dy < 3; dy++)
#pragma unroll
            for (int dx = 0; dx < 3; dx++)
                if ((dy != 1 || dx != 1) && r[dy][v + dx] > val) ismax = 0;
        out[v] = ismax;
    }
    if (x0 + 3 < w && ((unsigned long)&C[idy * w + x0] & 15) == 0) {
        *(int4 *)&C[idy * w + x0] = make_int4(out[0], out[1], out[2], out[3]);
    } else {
        for (int v = 0; v < 4 && x0 + v < w; v++) C[idy * w + x0 + v] = out[v];
    }
}
