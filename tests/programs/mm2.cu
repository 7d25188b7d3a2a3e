/* A product chain: tmp = alpha*A*B, then D = beta*D + tmp*C (the second kernel reads what the
 * first wrote), sizes as macros passed to the kernels, 32x8 blocks. */
#include "common.h"
#include <cuda_runtime.h>

#ifndef NI
#define NI 48
#endif
#ifndef NJ
#define NJ 40
#endif
#ifndef NK
#define NK 36
#endif
#ifndef NL
#define NL 44
#endif
#define DIM_X 32
#define DIM_Y 8

__global__ void mm2_kernel1(int ni, int nj, int nk, float alpha, float *tmp, float *A, float *B) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  int i = blockIdx.y * blockDim.y + threadIdx.y;
  if (i < ni && j < nj) {
    tmp[i * nj + j] = 0;
    for (int k = 0; k < nk; k++) tmp[i * nj + j] += alpha * A[i * nk + k] * B[k * nj + j];
  }
}

__global__ void mm2_kernel2(int ni, int nl, int nj, float beta, float *D, float *tmp, float *C) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  int i = blockIdx.y * blockDim.y + threadIdx.y;
  if (i < ni && j < nl) {
    D[i * nl + j] *= beta;
    int k;
    for (k = 0; k < nj; k++) D[i * nl + j] += tmp[i * nj + k] * C[k * nl + j];
  }
}

static float *filled(int n, int a, int b) {
  float *x = (float *)malloc(n * sizeof(float));
  for (int i = 0; i < n; i++) x[i] = (float)((i * a + b) % 17 - 8) / 16.0f;
  return x;
}

int main(void) {
  float alpha = 1.5f, beta = 1.2f;
  float *A = filled(NI * NK, 3, 1), *B = filled(NK * NJ, 5, 2), *C = filled(NJ * NL, 7, 3), *D = filled(NI * NL, 11, 4);
  float *tmp = (float *)malloc(NI * NJ * sizeof(float)), *D_gpu = (float *)malloc(NI * NL * sizeof(float));
  float *A_d, *B_d, *C_d, *D_d, *tmp_d;
  cudaMalloc((void **)&A_d, sizeof(float) * NI * NK);
  cudaMalloc((void **)&B_d, sizeof(float) * NK * NJ);
  cudaMalloc((void **)&C_d, sizeof(float) * NJ * NL);
  cudaMalloc((void **)&D_d, sizeof(float) * NI * NL);
  cudaMalloc((void **)&tmp_d, sizeof(float) * NI * NJ);
  cudaMemcpy(A_d, A, sizeof(float) * NI * NK, cudaMemcpyHostToDevice);
  cudaMemcpy(B_d, B, sizeof(float) * NK * NJ, cudaMemcpyHostToDevice);
  cudaMemcpy(C_d, C, sizeof(float) * NJ * NL, cudaMemcpyHostToDevice);
  cudaMemcpy(D_d, D, sizeof(float) * NI * NL, cudaMemcpyHostToDevice);
  dim3 block(DIM_X, DIM_Y);
  dim3 grid1((NJ + DIM_X - 1) / DIM_X, (NI + DIM_Y - 1) / DIM_Y);
  dim3 grid2((NL + DIM_X - 1) / DIM_X, (NI + DIM_Y - 1) / DIM_Y);
  mm2_kernel1<<<grid1, block>>>(NI, NJ, NK, alpha, tmp_d, A_d, B_d);
  mm2_kernel2<<<grid2, block>>>(NI, NL, NJ, beta, D_d, tmp_d, C_d);
  cudaMemcpy(D_gpu, D_d, sizeof(float) * NI * NL, cudaMemcpyDeviceToHost);
  for (int i = 0; i < NI; i++)
    for (int j = 0; j < NJ; j++) {
      tmp[i * NJ + j] = 0;
      for (int k = 0; k < NK; k++) tmp[i * NJ + j] += alpha * A[i * NK + k] * B[k * NJ + j];
    }
  for (int i = 0; i < NI; i++)
    for (int j = 0; j < NL; j++) {
      D[i * NL + j] *= beta;
      for (int k = 0; k < NJ; k++) D[i * NL + j] += tmp[i * NJ + k] * C[k * NL + j];
    }
  int fail = compareResults(D, D_gpu, NI * NL, "2mm D");
  printf("%s\n", fail ? "FAIL" : "PASS");
  cudaFree(A_d); cudaFree(B_d); cudaFree(C_d); cudaFree(D_d); cudaFree(tmp_d);
  free(A); free(B); free(C); free(D); free(tmp); free(D_gpu);
  return fail ? 1 : 0;
}
