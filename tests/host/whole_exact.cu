/* The whole-program check (docs/optimize.md, "The whole program checked"): a column sum whose
 * program checks it against the CPU's sum in the same order, exactly. Split reassociates the sum:
 * verified within its rounding bound at the launch, but the program's own check then fails, and
 * optimize must not keep it. */
#include <stdio.h>
#include <stdlib.h>
#include <cuda_runtime.h>

#define N 512 /* rows: the terms of each sum */
#define M 256 /* columns: one thread each */

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
  for (int i = 0; i < N * M; i++) x[i] = (float)((i * 7919) % 1000) / 997.0f + 0.001f * (i % 13);
  float *dx, *ds;
  cudaMalloc((void **)&dx, sizeof(float) * N * M);
  cudaMalloc((void **)&ds, sizeof(float) * M);
  cudaMemcpy(dx, x, sizeof(float) * N * M, cudaMemcpyHostToDevice);
  colsum<<<(M + 127) / 128, 128>>>(dx, ds, N, M);
  cudaMemcpy(s, ds, sizeof(float) * M, cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int j = 0; j < M; j++) {
    float acc = 0.0f;
    for (int i = 0; i < N; i++) acc += x[i * M + j];
    bad += acc != s[j];
  }
  printf("colsum: %d of %d sums differ from the CPU's in the same order\n", bad, M);
  printf("colsum: %s\n", bad ? "FAILED" : "PASSED");
  return bad != 0;
}
