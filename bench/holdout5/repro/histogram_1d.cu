// histogram_1d: histogram.cu with one thread per element instead of the grid-stride loop (one change).
/* histogram: a 256-bin histogram of a byte stream with atomicAdd on global bins (grid-stride
 * loop), then the bins turned into a normalized density, one thread per bin. */
#include <stdio.h>
#include <stdlib.h>
#include <cuda_runtime.h>

#ifndef NELEM
#define NELEM (1 << 20)
#endif
#define NBINS 256
#define BLOCK_SIZE 256
#define GRID_SIZE 120

__global__ void histogram_atomic(const unsigned char *data, unsigned int *bins, size_t n)
{
    size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    if (i < n)
        atomicAdd(&bins[data[i]], 1u);
}

__global__ void histogram_density(const unsigned int *bins, float *density, size_t n)
{
    unsigned int b = blockIdx.x * blockDim.x + threadIdx.x;
    if (b < NBINS)
        density[b] = (float)bins[b] / (float)n;
}

int main(void)
{
    size_t n = NELEM;
    size_t i;
    unsigned int seed = 12345u;
    unsigned char *h_data = (unsigned char *)malloc(n);
    unsigned int h_bins[NBINS], ref[NBINS];
    float h_density[NBINS];
    unsigned char *d_data;
    unsigned int *d_bins;
    float *d_density;
    int b, errors = 0;

    for (i = 0; i < n; i++) {
        seed = seed * 1103515245u + 12345u;
        /* skewed: the low bins are more frequent */
        unsigned int v = (seed >> 16) & 0xff;
        h_data[i] = (unsigned char)((v * v) >> 8);
    }
    for (b = 0; b < NBINS; b++)
        ref[b] = 0;
    for (i = 0; i < n; i++)
        ref[h_data[i]]++;

    cudaMalloc((void **)&d_data, n);
    cudaMalloc((void **)&d_bins, NBINS * sizeof(unsigned int));
    cudaMalloc((void **)&d_density, NBINS * sizeof(float));
    cudaMemcpy(d_data, h_data, n, cudaMemcpyHostToDevice);
    cudaMemset(d_bins, 0, NBINS * sizeof(unsigned int));

    histogram_atomic<<<(unsigned)((n + BLOCK_SIZE - 1) / BLOCK_SIZE), BLOCK_SIZE>>>(d_data, d_bins, n);
    histogram_density<<<(NBINS + 63) / 64, 64>>>(d_bins, d_density, n);
    cudaDeviceSynchronize();
    cudaMemcpy(h_bins, d_bins, NBINS * sizeof(unsigned int), cudaMemcpyDeviceToHost);
    cudaMemcpy(h_density, d_density, NBINS * sizeof(float), cudaMemcpyDeviceToHost);

    for (b = 0; b < NBINS; b++) {
        float want = (float)ref[b] / (float)n;
        if (h_bins[b] != ref[b] || h_density[b] < want * 0.9999f || h_density[b] > want * 1.0001f) {
            if (errors < 5)
                printf("bin %d: %u (%g), expected %u (%g)\n", b, h_bins[b], h_density[b], ref[b], want);
            errors++;
        }
    }
    cudaFree(d_data);
    cudaFree(d_bins);
    cudaFree(d_density);
    free(h_data);
    printf("histogram: %s\n", errors == 0 ? "PASSED" : "FAILED");
    return errors == 0 ? 0 : 1;
}
