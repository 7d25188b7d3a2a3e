// repro: conv2d.cu with x over columns (DIAGNOSIS.md, cause 7)
// conv2d: 2-D convolution of an H x W image with a (2R+1) x (2R+1) filter held in a device array,
// zero padding at the borders.  2-D grid with x over rows (as some people write it).
#include <stdio.h>
#include <stdlib.h>
#include <math.h>
#include <cuda_runtime.h>

#ifndef H
#define H 512
#endif
#ifndef W
#define W 512
#endif
#ifndef R
#define R 2
#endif
#define FW (2 * R + 1)
#define BS 16

__global__ void conv2d_kernel(const float *in, const float *filter, float *out, int h, int w)
{
    int row = blockIdx.y * BS + threadIdx.y;
    int col = blockIdx.x * BS + threadIdx.x;
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

int main(void)
{
    int h = H, w = W;
    int i, j, fi, fj, nbad = 0;
    float *img = (float *)malloc(sizeof(float) * h * w);
    float *flt = (float *)malloc(sizeof(float) * FW * FW);
    float *out = (float *)malloc(sizeof(float) * h * w);
    float *d_img, *d_flt, *d_out;

    for (i = 0; i < h; i++)
        for (j = 0; j < w; j++)
            img[i * w + j] = (float)((i * 31 + j * 17) % 256) / 255.0f;
    for (i = 0; i < FW * FW; i++)
        flt[i] = 1.0f / (1.0f + (float)((i * 5) % 7));

    cudaMalloc((void **)&d_img, sizeof(float) * h * w);
    cudaMalloc((void **)&d_flt, sizeof(float) * FW * FW);
    cudaMalloc((void **)&d_out, sizeof(float) * h * w);
    cudaMemcpy(d_img, img, sizeof(float) * h * w, cudaMemcpyHostToDevice);
    cudaMemcpy(d_flt, flt, sizeof(float) * FW * FW, cudaMemcpyHostToDevice);

    dim3 block(BS, BS);
    dim3 grid((w + BS - 1) / BS, (h + BS - 1) / BS);
    conv2d_kernel<<<grid, block>>>(d_img, d_flt, d_out, h, w);
    cudaMemcpy(out, d_out, sizeof(float) * h * w, cudaMemcpyDeviceToHost);

    for (i = 0; i < h; i++) {
        for (j = 0; j < w; j++) {
            float s = 0.0f;
            for (fi = -R; fi <= R; fi++)
                for (fj = -R; fj <= R; fj++)
                    if (i + fi >= 0 && i + fi < h && j + fj >= 0 && j + fj < w)
                        s += img[(i + fi) * w + (j + fj)] * flt[(fi + R) * FW + (fj + R)];
            if (fabsf(out[i * w + j] - s) > 1e-4f * fabsf(s) + 1e-5f)
                nbad++;
        }
    }
    cudaFree(d_img);
    cudaFree(d_flt);
    cudaFree(d_out);
    free(img);
    free(flt);
    free(out);
    if (nbad) {
        printf("conv2d: %d bad pixels\nconv2d: FAILED\n", nbad);
        return 1;
    }
    printf("conv2d: PASSED\n");
    return 0;
}
