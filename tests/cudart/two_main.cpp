// the host half of a two-file program: C++, compiled by nvcc as host code only
#include <cstdio>
#include <string>
#include <cuda_runtime.h>
void scale_on_device(float *d, int n, float s);   // two_kernels.cu
int main() {
  const int n = 777;
  float h[n];
  for (int i = 0; i < n; i++) h[i] = (float)i;
  float *d;
  cudaMalloc(&d, sizeof h);
  cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice);
  scale_on_device(d, n, 3.0f);
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  std::string verdict = h[776] == 2328.0f && h[1] == 3.0f ? "PASS" : "FAIL";
  printf("two files: h[776] = %g, %s\n", h[776], verdict.c_str());
  cudaFree(d);
  return verdict == "PASS" ? 0 : 1;
}
