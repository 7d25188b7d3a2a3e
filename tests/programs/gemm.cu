/* C = alpha * A * B + beta * C, one thread per element of C, C updated in global memory. */
#include "common.h"
#include <cuda_runtime.h>

#ifndef NI
#define NI 96
#endif
#ifndef NJ
#define NJ 80
#endif
#ifndef NK
#define NK 72
#endif
#define DIM_THREAD_BLOCK_X 32
#define DIM_THREAD_BLOCK_Y 8

__global__ void gemm_kernel(int ni, int nj, int nk, float alpha, float beta, float *a, float *b, float *c) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  int i = blockIdx.y * blockDim.y + threadIdx.y;
  if ((i < ni) && (j < nj)) {
    c[i * NJ + j] *= beta;
    int k;
    for (k = 0; k < nk; k++) {
      c[i * NJ + j] += alpha * a[i * NK + k] * b[k * NJ + j];
    }
  }
}

static void gemm_cpu(float alpha, float beta, const float *A, const float *B, float *C) {
  for (int i = 0; i < NI; i++)
    for (int j = 0; j < NJ; j++) {
      C[i * NJ + j] *= beta;
      for (int k = 0; k < NK; k++) C[i * NJ + j] += alpha * A[i * NK + k] * B[k * NJ + j];
    }
}

int main(void) {
  float alpha = 32412.0f / 10000.0f, beta = 2123.0f / 10000.0f;
  float *A = (float *)malloc(NI * NK * sizeof(float));
  float *B = (float *)malloc(NK * NJ * sizeof(float));
  float *C = (float *)malloc(NI * NJ * sizeof(float));
  float *C_gpu = (float *)malloc(NI * NJ * sizeof(float));
  for (int i = 0; i < NI; i++) for (int k = 0; k < NK; k++) A[i * NK + k] = ((float)((i * k) % 17) - 8.0f) / NI;
  for (int k = 0; k < NK; k++) for (int j = 0; j < NJ; j++) B[k * NJ + j] = ((float)((k * j + 3) % 13) - 6.0f) / NJ;
  for (int i = 0; i < NI; i++) for (int j = 0; j < NJ; j++) C[i * NJ + j] = ((float)((i + j) % 11)) / NI;
  float *A_gpu, *B_gpu, *Cd;
  cudaMalloc((void **)&A_gpu, sizeof(float) * NI * NK);
  cudaMalloc((void **)&B_gpu, sizeof(float) * NK * NJ);
  cudaMalloc((void **)&Cd, sizeof(float) * NI * NJ);
  cudaMemcpy(A_gpu, A, sizeof(float) * NI * NK, cudaMemcpyHostToDevice);
  cudaMemcpy(B_gpu, B, sizeof(float) * NK * NJ, cudaMemcpyHostToDevice);
  cudaMemcpy(Cd, C, sizeof(float) * NI * NJ, cudaMemcpyHostToDevice);
  dim3 block(DIM_THREAD_BLOCK_X, DIM_THREAD_BLOCK_Y);
  dim3 grid((size_t)(ceil(((float)NJ) / ((float)block.x))), (size_t)(ceil(((float)NI) / ((float)block.y))));
  gemm_kernel<<<grid, block>>>(NI, NJ, NK, alpha, beta, A_gpu, B_gpu, Cd);
  cudaDeviceSynchronize();
  cudaMemcpy(C_gpu, Cd, sizeof(float) * NI * NJ, cudaMemcpyDeviceToHost);
  gemm_cpu(alpha, beta, A, B, C);
  int fail = compareResults(C, C_gpu, NI * NJ, "gemm");
  printf("%s\n", fail ? "FAIL" : "PASS");
  cudaFree(A_gpu); cudaFree(B_gpu); cudaFree(Cd);
  free(A); free(B); free(C); free(C_gpu);
  return fail ? 1 : 0;
}
