// A program in two source files, as nvcc takes them: the kernel and its launcher in one, main
// and a helper in the other.
#include <stdio.h>
#include <stdlib.h>

void launch_scale(float *d, int n, float s);   /* scale.cu */

static float sum(const float *x, int n) {
  float s = 0;
  for (int i = 0; i < n; i++) s += x[i];
  return s;
}

int main(void) {
  const int n = 1000;
  float *h = (float *)malloc(n * sizeof(float));
  for (int i = 0; i < n; i++) h[i] = 1.0f;
  float *d;
  cudaMalloc(&d, n * sizeof(float));
  cudaMemcpy(d, h, n * sizeof(float), cudaMemcpyHostToDevice);
  launch_scale(d, n, 3.0f);
  cudaMemcpy(h, d, n * sizeof(float), cudaMemcpyDeviceToHost);
  printf("sum %.1f\n", sum(h, n));
  return sum(h, n) == 3000.0f ? 0 : 1;
}
