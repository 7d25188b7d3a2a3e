// maxpool: 2-D max pooling over an NCHW tensor, 3x3 window, stride 2, padding 1, with the argmax
// index kept for a backward pass. One thread per output element; x over output columns,
// y over output rows, z over batch * channels.
#include <stdio.h>
#include <stdlib.h>
#include <float.h>
#include <cuda_runtime.h>

#ifndef BATCH
#define BATCH 4
#endif
#ifndef CH
#define CH 16
#endif
#ifndef H
#define H 128
#endif
#ifndef W
#define W 128
#endif
#define KS 3
#define STRIDE 2
#define PAD 1
#define OH ((H + 2 * PAD - KS) / STRIDE + 1)
#define OW ((W + 2 * PAD - KS) / STRIDE + 1)

__device__ __host__ inline bool inside(int y, int x)
{
    return y >= 0 && y < H && x >= 0 && x < W;
}

__global__ void maxpool2d(const float *input, float *output, int *argmax)
{
    int ox = blockIdx.x * blockDim.x + threadIdx.x;
    int oy = blockIdx.y * blockDim.y + threadIdx.y;
    int plane = blockIdx.z;

    if (ox < OW && oy < OH) {
        const float *in = input + (size_t)plane * H * W;
        float best = -FLT_MAX;
        int besti = -1;
        for (int ky = 0; ky < KS; ky++) {
            for (int kx = 0; kx < KS; kx++) {
                int iy = oy * STRIDE - PAD + ky;
                int ix = ox * STRIDE - PAD + kx;
                if (inside(iy, ix)) {
                    float v = in[iy * W + ix];
                    if (v > best) {
                        best = v;
                        besti = iy * W + ix;
                    }
                }
            }
        }
        output[((size_t)plane * OH + oy) * OW + ox] = best;
        argmax[((size_t)plane * OH + oy) * OW + ox] = besti;
    }
}

int main(void)
{
    size_t in_count = (size_t)BATCH * CH * H * W;
    size_t out_count = (size_t)BATCH * CH * OH * OW;
    float *h_in = (float *)malloc(in_count * sizeof(float));
    float *h_out = (float *)malloc(out_count * sizeof(float));
    int *h_arg = (int *)malloc(out_count * sizeof(int));
    float *d_in, *d_out;
    int *d_arg;
    size_t i;
    int mistakes = 0;

    for (i = 0; i < in_count; i++)
        h_in[i] = (float)((i * 2654435761u) % 1000) / 100.0f - 5.0f;

    cudaMalloc((void **)&d_in, in_count * sizeof(float));
    cudaMalloc((void **)&d_out, out_count * sizeof(float));
    cudaMalloc((void **)&d_arg, out_count * sizeof(int));
    cudaMemcpy(d_in, h_in, in_count * sizeof(float), cudaMemcpyHostToDevice);

    dim3 block(16, 16, 1);
    dim3 grid((OW + 15) / 16, (OH + 15) / 16, BATCH * CH);
    maxpool2d<<<grid, block>>>(d_in, d_out, d_arg);
    cudaMemcpy(h_out, d_out, out_count * sizeof(float), cudaMemcpyDeviceToHost);
    cudaMemcpy(h_arg, d_arg, out_count * sizeof(int), cudaMemcpyDeviceToHost);

    for (int p = 0; p < BATCH * CH; p++)
        for (int oy = 0; oy < OH; oy++)
            for (int ox = 0; ox < OW; ox++) {
                float best = -FLT_MAX;
                int besti = -1;
                for (int ky = 0; ky < KS; ky++)
                    for (int kx = 0; kx < KS; kx++) {
                        int iy = oy * STRIDE - PAD + ky, ix = ox * STRIDE - PAD + kx;
                        if (inside(iy, ix) && h_in[(size_t)p * H * W + iy * W + ix] > best) {
                            best = h_in[(size_t)p * H * W + iy * W + ix];
                            besti = iy * W + ix;
                        }
                    }
                size_t o = ((size_t)p * OH + oy) * OW + ox;
                if (h_out[o] != best || h_arg[o] != besti) {
                    if (mistakes < 5)
                        printf("out[%zu] = %f (%d), expected %f (%d)\n", o, h_out[o], h_arg[o], best, besti);
                    mistakes++;
                }
            }
    cudaFree(d_in);
    cudaFree(d_out);
    cudaFree(d_arg);
    free(h_in);
    free(h_out);
    free(h_arg);
    printf("maxpool: %s\n", mistakes ? "FAILED" : "PASSED");
    return mistakes ? 1 : 0;
}
