/* x1 = x1 + A y1, x2 = x2 + A^T y2: two kernels launched by a helper, unsigned indices. */
#include "common.h"
#include <cuda_runtime.h>

#ifndef N
#define N 160
#endif
#define BLOCK_X 128

__global__ void mvt_kernel1(float *a, float *x1, float *y_1) {
  unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < N) {
    unsigned int j;
    for (j = 0; j < N; j++) x1[i] += a[i * N + j] * y_1[j];
  }
}

__global__ void mvt_kernel2(float *a, float *x2, float *y_2) {
  unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < N) {
    unsigned int j = 0;
    while (j < N) {
      x2[i] += a[j * N + i] * y_2[j];
      j++;
    }
  }
}

static void mvt_gpu(float *a_d, float *x1_d, float *x2_d, float *y1_d, float *y2_d) {
  dim3 block(BLOCK_X, 1);
  dim3 grid((N + BLOCK_X - 1) / BLOCK_X, 1);
  mvt_kernel1<<<grid, block>>>(a_d, x1_d, y1_d);
  mvt_kernel2<<<grid, block>>>(a_d, x2_d, y2_d);
  cudaDeviceSynchronize();
}

int main(void) {
  float *a = (float *)malloc(N * N * sizeof(float));
  float *x1 = (float *)malloc(N * sizeof(float)), *x2 = (float *)malloc(N * sizeof(float));
  float *y1 = (float *)malloc(N * sizeof(float)), *y2 = (float *)malloc(N * sizeof(float));
  float *g1 = (float *)malloc(N * sizeof(float)), *g2 = (float *)malloc(N * sizeof(float));
  for (int i = 0; i < N; i++) {
    x1[i] = 0.0f; x2[i] = 0.0f;
    y1[i] = ((float)(i % 9) - 4.0f) / N; y2[i] = ((float)((i * 3) % 7) - 3.0f) / N;
    for (int j = 0; j < N; j++) a[i * N + j] = ((float)((i * j) % 13) - 6.0f) / N;
  }
  float *a_d, *x1_d, *x2_d, *y1_d, *y2_d;
  cudaMalloc(&a_d, N * N * sizeof(float));
  cudaMalloc(&x1_d, N * sizeof(float)); cudaMalloc(&x2_d, N * sizeof(float));
  cudaMalloc(&y1_d, N * sizeof(float)); cudaMalloc(&y2_d, N * sizeof(float));
  cudaMemcpy(a_d, a, N * N * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(x1_d, x1, N * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(x2_d, x2, N * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(y1_d, y1, N * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(y2_d, y2, N * sizeof(float), cudaMemcpyHostToDevice);
  mvt_gpu(a_d, x1_d, x2_d, y1_d, y2_d);
  cudaMemcpy(g1, x1_d, N * sizeof(float), cudaMemcpyDeviceToHost);
  cudaMemcpy(g2, x2_d, N * sizeof(float), cudaMemcpyDeviceToHost);
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) { x1[i] = x1[i] + a[i * N + j] * y1[j]; x2[i] = x2[i] + a[j * N + i] * y2[j]; }
  int fail = compareResults(x1, g1, N, "mvt x1") + compareResults(x2, g2, N, "mvt x2");
  printf("%s\n", fail ? "FAIL" : "PASS");
  cudaFree(a_d); cudaFree(x1_d); cudaFree(x2_d); cudaFree(y1_d); cudaFree(y2_d);
  free(a); free(x1); free(x2); free(y1); free(y2); free(g1); free(g2);
  return fail ? 1 : 0;
}
