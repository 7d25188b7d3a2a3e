/* Correlation of the columns of a data matrix in four kernels: column means, column standard
 * deviations, the data centred and scaled (a 2-D kernel), then a thread per column j1 filling row
 * j1 of the symmetric matrix. */
#include "common.h"
#include <cuda_runtime.h>

#ifndef M
#define M 40
#endif
#ifndef N
#define N 56
#endif
#define EPS 0.1f

__global__ void corr_mean(float *mean, const float *data, int m, int n) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j < m) {
    float s = 0.0f;
    for (int i = 0; i < n; i++) s += data[i * m + j];
    mean[j] = s / (float)n;
  }
}

__global__ void corr_std(float *stddev, const float *mean, const float *data, int m, int n) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j < m) {
    stddev[j] = 0.0f;
    for (int i = 0; i < n; i++) stddev[j] += (data[i * m + j] - mean[j]) * (data[i * m + j] - mean[j]);
    stddev[j] = sqrtf(stddev[j] / (float)n);
    if (stddev[j] <= EPS) stddev[j] = 1.0f;
  }
}

__global__ void corr_centre(float *data, const float *mean, const float *stddev, int m, int n) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  int i = blockIdx.y * blockDim.y + threadIdx.y;
  if (i < n && j < m) data[i * m + j] = (data[i * m + j] - mean[j]) / (sqrtf((float)n) * stddev[j]);
}

__global__ void corr_corr(float *symmat, const float *data, int m, int n) {
  int j1 = blockIdx.x * blockDim.x + threadIdx.x;
  if (j1 < m) {
    symmat[j1 * m + j1] = 1.0f;
    for (int j2 = j1 + 1; j2 < m; j2++) {
      float c = 0.0f;
      for (int i = 0; i < n; i++) c += data[i * m + j1] * data[i * m + j2];
      symmat[j1 * m + j2] = c;
      symmat[j2 * m + j1] = c;
    }
  }
}

int main(void) {
  float *data = (float *)malloc(N * M * sizeof(float)), *sym = (float *)malloc(M * M * sizeof(float));
  float *sym_gpu = (float *)malloc(M * M * sizeof(float)), *mean = (float *)malloc(M * sizeof(float));
  float *sd = (float *)malloc(M * sizeof(float));
  for (int i = 0; i < N; i++)
    for (int j = 0; j < M; j++) data[i * M + j] = (float)((i * (j + 3) + 2 * j) % 23) / 4.0f + (float)j / M;
  float *data_d, *sym_d, *mean_d, *sd_d;
  cudaMalloc((void **)&data_d, sizeof(float) * N * M);
  cudaMalloc((void **)&sym_d, sizeof(float) * M * M);
  cudaMalloc((void **)&mean_d, sizeof(float) * M);
  cudaMalloc((void **)&sd_d, sizeof(float) * M);
  cudaMemcpy(data_d, data, sizeof(float) * N * M, cudaMemcpyHostToDevice);
  cudaMemset(sym_d, 0, sizeof(float) * M * M);
  dim3 b1(64), g1((M + 63) / 64);
  dim3 b2(16, 16), g2((M + 15) / 16, (N + 15) / 16);
  corr_mean<<<g1, b1>>>(mean_d, data_d, M, N);
  corr_std<<<g1, b1>>>(sd_d, mean_d, data_d, M, N);
  corr_centre<<<g2, b2>>>(data_d, mean_d, sd_d, M, N);
  corr_corr<<<g1, b1>>>(sym_d, data_d, M, N);
  cudaMemcpy(sym_gpu, sym_d, sizeof(float) * M * M, cudaMemcpyDeviceToHost);
  for (int j = 0; j < M; j++) {
    float s = 0.0f;
    for (int i = 0; i < N; i++) s += data[i * M + j];
    mean[j] = s / (float)N;
    float v = 0.0f;
    for (int i = 0; i < N; i++) v += (data[i * M + j] - mean[j]) * (data[i * M + j] - mean[j]);
    sd[j] = sqrtf(v / (float)N);
    if (sd[j] <= EPS) sd[j] = 1.0f;
  }
  for (int i = 0; i < N; i++)
    for (int j = 0; j < M; j++) data[i * M + j] = (data[i * M + j] - mean[j]) / (sqrtf((float)N) * sd[j]);
  for (int j1 = 0; j1 < M; j1++) {
    sym[j1 * M + j1] = 1.0f;
    for (int j2 = j1 + 1; j2 < M; j2++) {
      float c = 0.0f;
      for (int i = 0; i < N; i++) c += data[i * M + j1] * data[i * M + j2];
      sym[j1 * M + j2] = sym[j2 * M + j1] = c;
    }
  }
  int fail = compareResults(sym, sym_gpu, M * M, "corr symmat");
  printf("%s\n", fail ? "FAIL" : "PASS");
  cudaFree(data_d); cudaFree(sym_d); cudaFree(mean_d); cudaFree(sd_d);
  free(data); free(sym); free(sym_gpu); free(mean); free(sd);
  return fail ? 1 : 0;
}
