#ifndef H
#define H 4096
#endif
#ifndef W
#define W 4096
#endif
#pragma carve launch imregionmax grid((W+127)/128, (H+15)/16) block(16, 16)
#pragma carve arg A = float[(H+2)*(W+2)] : random(1)
#pragma carve arg C = int[H*W] : zeros out
#pragma carve arg h = H
#pragma carve arg w = W
#pragma carve baseline copy(4*H*W)
__global__ void imregionmax(const float *__restrict__ A, int *__restrict__ C, int h, int w)
{
    int idy = blockIdx.y * blockDim.y + threadIdx.y;
    int x0 = (blockIdx.x * blockDim.x + threadIdx.x) * 8;
    int out[8];
    unsigned mask = 0;
#pragma unroll
    for (int v = 0; v < 8; v++) {
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
    if (mask == 255u && ((unsigned long)&C[idy * w + x0] & 15) == 0) {
        *(int4 *)&C[idy * w + x0] = make_int4(out[0], out[1], out[2], out[3]); *(int4 *)&C[idy * w + x0 + 4] = make_int4(out[4], out[5], out[6], out[7]);
    } else {
#pragma unroll
        for (int v = 0; v < 8; v++)
            if (mask >> v & 1u) C[idy * w + x0 + v] = out[v];
    }
}
