/* LU factorization without pivoting: for each k a host loop launches two kernels with k as an
 * argument (the row k scaled, then the trailing matrix updated); the grids shrink with k. */
#include "common.h"
#include <cuda_runtime.h>

#ifndef N
#define N 48
#endif

__global__ void lu_kernel1(float *A, int k, int n) {
  int j = k + 1 + blockIdx.x * blockDim.x + threadIdx.x;
  if (j < n) A[k * n + j] = A[k * n + j] / A[k * n + k];
}

__global__ void lu_kernel2(float *A, int k, int n) {
  int j = k + 1 + blockIdx.x * blockDim.x + threadIdx.x;
  int i = k + 1 + blockIdx.y * blockDim.y + threadIdx.y;
  if (i < n && j < n) A[i * n + j] = A[i * n + j] - A[i * n + k] * A[k * n + j];
}

int main(void) {
  float *A = (float *)malloc(N * N * sizeof(float)), *A_gpu = (float *)malloc(N * N * sizeof(float));
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) A[i * N + j] = i == j ? (float)N + 1.0f : (float)((i * 7 + j * 3) % 11) / 11.0f;
  float *A_d;
  cudaMalloc((void **)&A_d, sizeof(float) * N * N);
  cudaMemcpy(A_d, A, sizeof(float) * N * N, cudaMemcpyHostToDevice);
  for (int k = 0; k < N; k++) {
    int rest = N - k - 1;
    lu_kernel1<<<(rest + 127) / 128 > 0 ? (rest + 127) / 128 : 1, 128>>>(A_d, k, N);
    dim3 block(32, 8);
    dim3 grid((rest + 31) / 32 > 0 ? (rest + 31) / 32 : 1, (rest + 7) / 8 > 0 ? (rest + 7) / 8 : 1);
    lu_kernel2<<<grid, block>>>(A_d, k, N);
  }
  cudaMemcpy(A_gpu, A_d, sizeof(float) * N * N, cudaMemcpyDeviceToHost);
  for (int k = 0; k < N; k++) {
    for (int j = k + 1; j < N; j++) A[k * N + j] = A[k * N + j] / A[k * N + k];
    for (int i = k + 1; i < N; i++)
      for (int j = k + 1; j < N; j++) A[i * N + j] = A[i * N + j] - A[i * N + k] * A[k * N + j];
  }
  int fail = compareResults(A, A_gpu, N * N, "lu A");
  printf("%s\n", fail ? "FAIL" : "PASS");
  cudaFree(A_d);
  free(A); free(A_gpu);
  return fail ? 1 : 0;
}
