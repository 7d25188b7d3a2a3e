// A naive matrix multiply, n from argv: the program checks the GPU's result against the CPU's.
#include <stdio.h>
#include <stdlib.h>
#include <math.h>
#include <cuda_runtime.h>

__global__ void mm(const float *A, const float *B, float *C, int n) {
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  if (row < n && col < n) {
    float s = 0.0f;
    for (int k = 0; k < n; k++) s += A[row * n + k] * B[k * n + col];
    C[row * n + col] = s;
  }
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 40;
  size_t bytes = (size_t)n * n * sizeof(float);
  float *hA = (float *)malloc(bytes), *hB = (float *)malloc(bytes), *hC = (float *)malloc(bytes);
  for (int i = 0; i < n * n; i++) { hA[i] = (float)(i % 7) - 3.0f; hB[i] = (float)(i % 5) - 2.0f; }
  float *dA, *dB, *dC;
  cudaMalloc((void **)&dA, bytes); cudaMalloc((void **)&dB, bytes); cudaMalloc((void **)&dC, bytes);
  cudaMemcpy(dA, hA, bytes, cudaMemcpyHostToDevice);
  cudaMemcpy(dB, hB, bytes, cudaMemcpyHostToDevice);
  dim3 block(16, 16), grid((n + 15) / 16, (n + 15) / 16);
  mm<<<grid, block>>>(dA, dB, dC, n);
  cudaMemcpy(hC, dC, bytes, cudaMemcpyDeviceToHost);
  int wrong = 0;
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) {
      float s = 0.0f;
      for (int k = 0; k < n; k++) s += hA[i * n + k] * hB[k * n + j];
      if (s != hC[i * n + j]) wrong++;
    }
  printf("mm: n=%d, %d wrong\n", n, wrong);
  return wrong != 0;
}
