// Vector addition with checks: the program a CUDA tutorial starts with.
#include <stdio.h>
#include <stdlib.h>
#include <math.h>
#include <cuda_runtime.h>

#define CHECK(call)                                                              \
  do {                                                                           \
    cudaError_t err_ = (call);                                                   \
    if (err_ != cudaSuccess) {                                                   \
      fprintf(stderr, "CUDA error %s at %s:%d\n", cudaGetErrorString(err_),      \
              __FILE__, __LINE__);                                               \
      exit(EXIT_FAILURE);                                                        \
    }                                                                            \
  } while (0)

__global__ void vadd(const float *a, const float *b, float *c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}

int main(int argc, char **argv) {
  int n = 5000;
  if (argc > 1) n = atoi(argv[1]);
  size_t bytes = n * sizeof(float);
  float *h_a = (float *)malloc(bytes);
  float *h_b = (float *)malloc(bytes);
  float *h_c = (float *)malloc(bytes);
  srand(42);
  for (int i = 0; i < n; i++) {
    h_a[i] = rand() / (float)RAND_MAX;
    h_b[i] = rand() / (float)RAND_MAX;
  }
  float *d_a, *d_b, *d_c;
  CHECK(cudaMalloc(&d_a, bytes));
  CHECK(cudaMalloc(&d_b, bytes));
  CHECK(cudaMalloc((void **)&d_c, bytes));
  CHECK(cudaMemcpy(d_a, h_a, bytes, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_b, h_b, bytes, cudaMemcpyHostToDevice));
  int threads = 256;
  int blocks = (n + threads - 1) / threads;
  vadd<<<blocks, threads>>>(d_a, d_b, d_c, n);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  CHECK(cudaMemcpy(h_c, d_c, bytes, cudaMemcpyDeviceToHost));
  int errors = 0;
  for (int i = 0; i < n; i++)
    if (fabsf(h_c[i] - (h_a[i] + h_b[i])) > 1e-5f) errors++;
  printf("vadd: %d elements, %d errors\n", n, errors);
  cudaFree(d_a); cudaFree(d_b); cudaFree(d_c);
  free(h_a); free(h_b); free(h_c);
  return errors ? 1 : 0;
}
