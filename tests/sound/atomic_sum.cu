// An atomic-per-element sum of n ones, n from argv: the answer is n.
#include <stdio.h>
#include <stdlib.h>
#include <cuda_runtime.h>

__global__ void total(const int *x, int *sum, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomicAdd(sum, x[i]);
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 70000;
  int *h = (int *)malloc(n * sizeof(int));
  for (int i = 0; i < n; i++) h[i] = 1;
  int *dx, *ds, s = 0;
  cudaMalloc((void **)&dx, n * sizeof(int));
  cudaMalloc((void **)&ds, sizeof(int));
  cudaMemcpy(dx, h, n * sizeof(int), cudaMemcpyHostToDevice);
  cudaMemcpy(ds, &s, sizeof(int), cudaMemcpyHostToDevice);
  total<<<(n + 255) / 256, 256>>>(dx, ds, n);
  cudaMemcpy(&s, ds, sizeof(int), cudaMemcpyDeviceToHost);
  printf("sum: n=%d, got %d\n", n, s);
  return s != n;
}
