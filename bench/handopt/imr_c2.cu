#ifndef H
#define H 4096
#endif
#ifndef W
#define W 4096
#endif
#pragma carve launch imregionmax grid((W+31)/32, (H+15)/16) block(16, 16)
#pragma carve arg A = float[(H+2)*(W+2)] : random(1)
#pragma carve arg C = int[H*W] : zeros out
#pragma carve arg h = H
#pragma carve arg w = W
#pragma carve baseline copy(4*H*W)
__global__ void imregionmax(const float *__restrict__ A, int *__restrict__ C, int h, int w)
{
    int idy = blockIdx.y * blockDim.y + threadIdx.y;
    int x0 = (blockIdx.x * blockDim.x + threadIdx.x) * 2;
    int out[2];
    unsigned mask = 0;
#pragma unroll
    for (int v = 0; v < 2; v++) {
        int idx = x0 + v;
        if (idx < w && idy < h) {
            int pw = w + 2;
            int c = (idy + 1) * pw + (idx + 1);
            float val = A[c];
            int ismax = 1;
            for (int dy = -1; dy <= 1; dy++)
                for (int dx = -1; dx <= 1; dx++)
                    if ((dy != 0 || dx != 0) && A[c + dy * pw + dx] > val)
                        ismax = 0;
            out[v] = ismax;
            mask |= 1u << v;
        }
    }
    if (mask == 3u && ((unsigned long)&C[idy * w + x0] & 7) == 0) {
        *(int2 *)&C[idy * w + x0] = make_int2(out[0], out[1]);
    } else {
#pragma unroll
        for (int v = 0; v < 2; v++)
            if (mask >> v & 1u) C[idy * w + x0 + v] = out[v];
    }
}
