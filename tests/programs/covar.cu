/* Covariance of the columns of a data matrix: column means, centering, then a thread per column
 * j1 running the loop over j2 >= j1 serially (the symmetric matrix filled from one triangle). */
#include "common.h"
#include <cuda_runtime.h>

#ifndef M
#define M 64
#endif
#ifndef N
#define N 72
#endif
#define FLOAT_N 3214212.01f
#define BLOCK 128

__global__ void mean_kernel(float *mean, float *data) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j < M) {
    mean[j] = 0.0f;
    int i;
    for (i = 0; i < N; i++) mean[j] += data[i * M + j];
    mean[j] /= (float)FLOAT_N;
  }
}

__global__ void reduce_kernel(float *mean, float *data) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  int i = blockIdx.y * blockDim.y + threadIdx.y;
  if ((i < N) && (j < M)) data[i * M + j] -= mean[j];
}

__global__ void covar_kernel(float *symmat, float *data) {
  int j1 = blockIdx.x * blockDim.x + threadIdx.x;
  int i, j2;
  if (j1 < M) {
    for (j2 = j1; j2 < M; j2++) {
      symmat[j1 * M + j2] = 0.0f;
      for (i = 0; i < N; i++) symmat[j1 * M + j2] += data[i * M + j1] * data[i * M + j2];
      symmat[j2 * M + j1] = symmat[j1 * M + j2];
    }
  }
}

int main(void) {
  float *data = (float *)malloc(N * M * sizeof(float));
  float *sym = (float *)malloc(M * M * sizeof(float));
  float *sym_gpu = (float *)malloc(M * M * sizeof(float));
  float *mean = (float *)malloc(M * sizeof(float));
  for (int i = 0; i < N; i++) for (int j = 0; j < M; j++) data[i * M + j] = ((float)i * j) / M + (float)((i + 2 * j) % 7);
  float *data_d, *sym_d, *mean_d;
  cudaMalloc((void **)&data_d, sizeof(float) * N * M);
  cudaMalloc((void **)&sym_d, sizeof(float) * M * M);
  cudaMalloc((void **)&mean_d, sizeof(float) * M);
  cudaMemcpy(data_d, data, sizeof(float) * N * M, cudaMemcpyHostToDevice);
  cudaMemset(sym_d, 0, sizeof(float) * M * M);
  dim3 block1(BLOCK, 1), grid1((M + BLOCK - 1) / BLOCK, 1);
  dim3 block2(32, 8), grid2((M + 31) / 32, (N + 7) / 8);
  mean_kernel<<<grid1, block1>>>(mean_d, data_d);
  reduce_kernel<<<grid2, block2>>>(mean_d, data_d);
  covar_kernel<<<grid1, block1>>>(sym_d, data_d);
  cudaDeviceSynchronize();
  cudaMemcpy(sym_gpu, sym_d, sizeof(float) * M * M, cudaMemcpyDeviceToHost);
  for (int j = 0; j < M; j++) {
    mean[j] = 0.0f;
    for (int i = 0; i < N; i++) mean[j] += data[i * M + j];
    mean[j] /= FLOAT_N;
  }
  for (int i = 0; i < N; i++) for (int j = 0; j < M; j++) data[i * M + j] -= mean[j];
  for (int j1 = 0; j1 < M; j1++)
    for (int j2 = j1; j2 < M; j2++) {
      sym[j1 * M + j2] = 0.0f;
      for (int i = 0; i < N; i++) sym[j1 * M + j2] += data[i * M + j1] * data[i * M + j2];
      sym[j2 * M + j1] = sym[j1 * M + j2];
    }
  int fail = compareResults(sym, sym_gpu, M * M, "covariance");
  printf("%s\n", fail ? "FAIL" : "PASS");
  cudaFree(data_d); cudaFree(sym_d); cudaFree(mean_d);
  free(data); free(sym); free(sym_gpu); free(mean);
  return fail ? 1 : 0;
}
