/* Jacobi 2-D: TSTEPS time steps of two kernels launched from a host loop. */
#include "common.h"
#include <cuda_runtime.h>

#ifndef TSTEPS
#define TSTEPS 6
#endif
#ifndef N
#define N 100
#endif

__global__ void runJacobiCUDA_kernel1(int n, float *A, float *B) {
  int i = blockIdx.y * blockDim.y + threadIdx.y;
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  if ((i >= 1) && (i < (n - 1)) && (j >= 1) && (j < (n - 1))) {
    B[i * n + j] = 0.2f * (A[i * n + j] + A[i * n + (j - 1)] + A[i * n + (1 + j)] + A[(1 + i) * n + j] + A[(i - 1) * n + j]);
  }
}

__global__ void runJacobiCUDA_kernel2(int n, float *A, float *B) {
  int i = blockIdx.y * blockDim.y + threadIdx.y;
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  if ((i >= 1) && (i < (n - 1)) && (j >= 1) && (j < (n - 1))) A[i * n + j] = B[i * n + j];
}

int main(void) {
  float *A = (float *)malloc(N * N * sizeof(float)), *B = (float *)malloc(N * N * sizeof(float));
  float *A_out = (float *)malloc(N * N * sizeof(float));
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) { A[i * N + j] = ((float)i * (j + 2) + 10) / N; B[i * N + j] = ((float)(i - 4) * (j - 1) + 11) / N; }
  float *Ad, *Bd;
  cudaMalloc(&Ad, N * N * sizeof(float));
  cudaMalloc(&Bd, N * N * sizeof(float));
  cudaMemcpy(Ad, A, N * N * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(Bd, B, N * N * sizeof(float), cudaMemcpyHostToDevice);
  dim3 block(32, 8);
  dim3 grid((unsigned int)ceil(((float)N) / ((float)block.x)), (unsigned int)ceil(((float)N) / ((float)block.y)));
  for (int t = 0; t < TSTEPS; t++) {
    runJacobiCUDA_kernel1<<<grid, block>>>(N, Ad, Bd);
    cudaDeviceSynchronize();
    runJacobiCUDA_kernel2<<<grid, block>>>(N, Ad, Bd);
    cudaDeviceSynchronize();
  }
  cudaMemcpy(A_out, Ad, N * N * sizeof(float), cudaMemcpyDeviceToHost);
  for (int t = 0; t < TSTEPS; t++) {
    for (int i = 1; i < N - 1; i++)
      for (int j = 1; j < N - 1; j++)
        B[i * N + j] = 0.2f * (A[i * N + j] + A[i * N + (j - 1)] + A[i * N + (1 + j)] + A[(1 + i) * N + j] + A[(i - 1) * N + j]);
    for (int i = 1; i < N - 1; i++)
      for (int j = 1; j < N - 1; j++) A[i * N + j] = B[i * N + j];
  }
  int fail = compareResults(A, A_out, N * N, "jacobi2d");
  printf("%s\n", fail ? "FAIL" : "PASS");
  cudaFree(Ad); cudaFree(Bd);
  free(A); free(B); free(A_out);
  return fail ? 1 : 0;
}
