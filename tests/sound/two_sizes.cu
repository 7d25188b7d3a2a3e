// One kernel launched at two sizes in one run (n = 4700, then 10000): both results checked.
#include <stdio.h>
#include <stdlib.h>
#include <cuda_runtime.h>

__global__ void scale(const float *x, float *y, float a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i];
}

static int run(int n) {
  float *h = (float *)malloc(n * sizeof(float)), *dx, *dy;
  for (int i = 0; i < n; i++) h[i] = (float)(i % 13);
  cudaMalloc((void **)&dx, n * sizeof(float));
  cudaMalloc((void **)&dy, n * sizeof(float));
  cudaMemcpy(dx, h, n * sizeof(float), cudaMemcpyHostToDevice);
  scale<<<(n + 255) / 256, 256>>>(dx, dy, 3.0f, n);
  cudaMemcpy(h, dy, n * sizeof(float), cudaMemcpyDeviceToHost);
  int wrong = 0;
  for (int i = 0; i < n; i++) wrong += h[i] != 3.0f * (float)(i % 13);
  cudaFree(dx); cudaFree(dy); free(h);
  return wrong;
}

int main(void) {
  int w1 = run(4700), w2 = run(10000);
  printf("scale: %d and %d wrong\n", w1, w2);
  return w1 + w2 != 0;
}
