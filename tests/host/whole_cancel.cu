/* The whole-program check (docs/optimize.md, "The whole program checked"): column sums that
 * cancel (+1e8, 1, -1e8, 1, ...), printed by no check of the program's own. Split's reassociated
 * sum lies within the rounding bound 2*n*eps*sum|x| at the launch (the bound is huge), but the
 * sums copied back differ from the original's beyond any tolerance: the whole-program check sees
 * it in the device-to-host copy, and optimize must not keep the step. */
#include <stdio.h>
#include <stdlib.h>
#include <cuda_runtime.h>

#define N 512
#define M 256

__global__ void colsum(const float *x, float *s, int n, int m) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j < m) {
    float acc = 0.0f;
    for (int i = 0; i < n; i++) acc += x[i * m + j];
    s[j] = acc;
  }
}

int main(void) {
  float *x = (float *)malloc(sizeof(float) * N * M), *s = (float *)malloc(sizeof(float) * M);
  for (int i = 0; i < N; i++)
    for (int j = 0; j < M; j++) x[i * M + j] = i % 4 == 0 ? 1e8f : i % 4 == 2 ? -1e8f : 1.0f;
  float *dx, *ds;
  cudaMalloc((void **)&dx, sizeof(float) * N * M);
  cudaMalloc((void **)&ds, sizeof(float) * M);
  cudaMemcpy(dx, x, sizeof(float) * N * M, cudaMemcpyHostToDevice);
  colsum<<<(M + 127) / 128, 128>>>(dx, ds, N, M);
  cudaMemcpy(s, ds, sizeof(float) * M, cudaMemcpyDeviceToHost);
  printf("colsum: done\n");
  return 0;
}
