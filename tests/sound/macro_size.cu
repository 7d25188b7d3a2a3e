// A program whose size is a macro (-D N=...), as dataset sizes are: the kernel reads N too.
#include <stdio.h>
#include <stdlib.h>
#include <cuda_runtime.h>
#ifndef N
#define N 48
#endif

__global__ void rowsum(const float *a, float *out) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < N) {
    float s = 0.0f;
    for (int k = 0; k < N; k++) s += a[r * N + k];
    out[r] += s;
  }
}

int main(void) {
  float *h = (float *)malloc(N * N * sizeof(float)), *o = (float *)malloc(N * sizeof(float));
  for (int i = 0; i < N * N; i++) h[i] = (float)(i % 3);
  for (int i = 0; i < N; i++) o[i] = 1.0f;
  float *da, *dout;
  cudaMalloc((void **)&da, N * N * sizeof(float));
  cudaMalloc((void **)&dout, N * sizeof(float));
  cudaMemcpy(da, h, N * N * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(dout, o, N * sizeof(float), cudaMemcpyHostToDevice);
  rowsum<<<(N + 31) / 32, 32>>>(da, dout);
  cudaMemcpy(o, dout, N * sizeof(float), cudaMemcpyDeviceToHost);
  int wrong = 0;
  for (int r = 0; r < N; r++) {
    float s = 0.0f;
    for (int k = 0; k < N; k++) s += h[r * N + k];
    wrong += o[r] != 1.0f + s;
  }
  printf("rowsum: N=%d, %d wrong\n", N, wrong);
  return wrong != 0;
}
