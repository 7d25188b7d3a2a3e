// A 5-point stencil whose weights live in __constant__ memory, set by the host with
// cudaMemcpyToSymbol (no initializer: zeros until then), and an integer offset in a __device__
// variable. Every output depends on the symbols: `carve bench --verify` of its launch fails
// unless the GPU harness copies the recorded contents to the symbols before the kernel runs.
#include <stdio.h>
#include <stdlib.h>

#define N 4096

__constant__ float weights[5];
__device__ int offset;

__global__ void stencil(const int *in, int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float s = 0;
  for (int k = -2; k <= 2; k++) {
    int j = i + k;
    if (j >= 0 && j < n) s += weights[k + 2] * (float)in[j];
  }
  out[i] = (int)s + offset;
}

int main(void) {
  float w[5] = {1.0f, 2.0f, 4.0f, 2.0f, 1.0f};   // sums of small integers times these are exact
  int off = 7;
  cudaMemcpyToSymbol(weights, w, sizeof w);
  cudaMemcpyToSymbol(offset, &off, sizeof off);
  int *h_in = (int *)malloc(N * sizeof(int)), *h_out = (int *)malloc(N * sizeof(int));
  for (int i = 0; i < N; i++) h_in[i] = (i * 37) % 101;
  int *d_in, *d_out;
  cudaMalloc(&d_in, N * sizeof(int));
  cudaMalloc(&d_out, N * sizeof(int));
  cudaMemcpy(d_in, h_in, N * sizeof(int), cudaMemcpyHostToDevice);
  stencil<<<(N + 255) / 256, 256>>>(d_in, d_out, N);
  cudaMemcpy(h_out, d_out, N * sizeof(int), cudaMemcpyDeviceToHost);
  long sum = 0;
  int bad = 0;
  for (int i = 0; i < N; i++) {
    int want = 7;
    for (int k = -2; k <= 2; k++)
      if (i + k >= 0 && i + k < N) want += (int)w[k + 2] * h_in[i + k];
    bad += h_out[i] != want;
    sum += h_out[i];
  }
  printf("stencil: out[0] = %d, out[100] = %d, sum %ld, %d wrong\n", h_out[0], h_out[100], sum, bad);
  cudaFree(d_in);
  cudaFree(d_out);
  free(h_in);
  free(h_out);
  return bad != 0;
}
