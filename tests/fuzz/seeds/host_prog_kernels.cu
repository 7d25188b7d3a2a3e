// Several kernels in one program: constant-memory coefficients, a stream, cudaMemset, a
// histogram with atomics, a grid-stride SAXPY, and a result checked on the host.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N 3000
#define BINS 16

__constant__ float coef[2];

__global__ void fill(float *x, int n, float v) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    x[i] = v * (float)(i % 7);
}

__global__ void saxpy(const float *x, float *y, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    y[i] = coef[0] * x[i] + coef[1] * y[i];
}

__global__ void histogram(const float *y, unsigned int *bins, int n) {
  __shared__ unsigned int local[BINS];
  if (threadIdx.x < BINS) local[threadIdx.x] = 0;
  __syncthreads();
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    int b = (int)y[i];
    if (b < 0) b = 0;
    if (b >= BINS) b = BINS - 1;
    atomicAdd(&local[b], 1u);
  }
  __syncthreads();
  if (threadIdx.x < BINS) atomicAdd(&bins[threadIdx.x], local[threadIdx.x]);
}

int main(int argc, char **argv) {
  float h_coef[2] = {2.0f, 0.5f};
  cudaMemcpyToSymbol(coef, h_coef, sizeof h_coef);
  float *x, *y;
  unsigned int *bins;
  cudaMalloc(&x, N * sizeof(float));
  cudaMalloc(&y, N * sizeof(float));
  cudaMalloc(&bins, BINS * sizeof(unsigned int));
  cudaMemset(bins, 0, BINS * sizeof(unsigned int));
  cudaStream_t s;
  cudaStreamCreate(&s);
  fill<<<8, 128, 0, s>>>(x, N, 1.0f);
  fill<<<8, 128, 0, s>>>(y, N, 2.0f);
  saxpy<<<(N + 255) / 256, 256, 0, s>>>(x, y, N);
  histogram<<<(N + 127) / 128, 128, 0, s>>>(y, bins, N);
  cudaStreamSynchronize(s);
  unsigned int h_bins[BINS];
  cudaMemcpy(h_bins, bins, sizeof h_bins, cudaMemcpyDeviceToHost);
  unsigned int total = 0;
  char line[256];
  line[0] = 0;
  for (int b = 0; b < BINS; b++) {
    total += h_bins[b];
    if (h_bins[b]) sprintf(line + strlen(line), " %d:%u", b, h_bins[b]);
  }
  printf("histogram%s\n", line);
  if (total != N) { fprintf(stderr, "lost elements: %u of %d\n", total, N); return 1; }
  cudaStreamDestroy(s);
  cudaFree(x); cudaFree(y); cudaFree(bins);
  puts("ok");
  return 0;
}
