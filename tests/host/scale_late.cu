// scale_args.cu with the kernel declared first and defined after main: carve optimize's
// program output must declare what the rewritten launch uses before main (tests/optimize_cli.sh).
#include <stdio.h>
#include <stdlib.h>

__global__ void scale(const float *x, float *y, float a, int n);

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 3000;
  int threads = argc > 2 ? atoi(argv[2]) : 128;
  float *h = (float *)malloc(n * sizeof(float)), *g = (float *)malloc(n * sizeof(float));
  for (int i = 0; i < n; i++) h[i] = (float)(i % 97) - 48.0f;
  float *x, *y;
  cudaMalloc(&x, n * sizeof(float));
  cudaMalloc(&y, n * sizeof(float));
  cudaMemcpy(x, h, n * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemset(y, 0, n * sizeof(float));
  dim3 grid((n + threads - 1) / threads), block(threads);
  scale<<<grid, block>>>(x, y, 2.5f, n);
  cudaMemcpy(g, y, n * sizeof(float), cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int i = 0; i < n; i++) bad += g[i] != 2.5f * h[i];
  printf("scale: n %d, block %d: %d wrong\n", n, threads, bad);
  cudaFree(x); cudaFree(y); free(h); free(g);
  return bad != 0;
}

__global__ void scale(const float *x, float *y, float a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i];
}
