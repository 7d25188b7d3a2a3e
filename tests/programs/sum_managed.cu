/* Sum of n floats with an atomic per thread, managed memory, n from the command line. */
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

__global__ void sum_kernel(const float *x, float *out, unsigned int n) {
  unsigned int idx = blockIdx.x * blockDim.x + threadIdx.x;
  if (idx < n) atomicAdd(out, x[idx]);
}

int main(int argc, char **argv) {
  unsigned int n = argc > 1 ? (unsigned int)atoi(argv[1]) : 5000;
  float *x, *out;
  cudaMallocManaged(&x, n * sizeof(float));
  cudaMallocManaged(&out, sizeof(float));
  for (unsigned int i = 0; i < n; i++) x[i] = (i % 4 == 3) ? -1.0f : 1.0f;
  *out = 0.0f;
  int threads = 256;
  int blocks = (n + threads - 1) / threads;
  sum_kernel<<<blocks, threads>>>(x, out, n);
  cudaDeviceSynchronize();
  float want = 0.0f;
  for (unsigned int i = 0; i < n; i++) want += x[i];
  printf("sum %.1f expected %.1f\n", *out, want);
  int ok = *out == want;
  printf("%s\n", ok ? "PASS" : "FAIL");
  cudaFree(x); cudaFree(out);
  return ok ? 0 : 1;
}
