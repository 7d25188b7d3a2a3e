/* 3x3 convolution with constant coefficients, the border left untouched; the indices written
 * row-major with the tile width as a constant. */
#include "common.h"
#include <cuda_runtime.h>

#ifndef NI
#define NI 120
#endif
#ifndef NJ
#define NJ 136
#endif
#define TILE_X 32
#define TILE_Y 8

__global__ void convolution2D_kernel(float *A, float *B) {
  int j = blockIdx.x * TILE_X + threadIdx.x;
  int i = blockIdx.y * TILE_Y + threadIdx.y;
  float c11 = +0.2f, c21 = +0.5f, c31 = -0.8f;
  float c12 = -0.3f, c22 = +0.6f, c32 = -0.9f;
  float c13 = +0.4f, c23 = +0.7f, c33 = +0.10f;
  if ((i < NI - 1) && (j < NJ - 1) && (i > 0) && (j > 0)) {
    B[i * NJ + j] = c11 * A[(i - 1) * NJ + (j - 1)] + c21 * A[(i - 1) * NJ + (j + 0)] + c31 * A[(i - 1) * NJ + (j + 1)]
                  + c12 * A[(i + 0) * NJ + (j - 1)] + c22 * A[(i + 0) * NJ + (j + 0)] + c32 * A[(i + 0) * NJ + (j + 1)]
                  + c13 * A[(i + 1) * NJ + (j - 1)] + c23 * A[(i + 1) * NJ + (j + 0)] + c33 * A[(i + 1) * NJ + (j + 1)];
  }
}

int main(void) {
  float *A = (float *)malloc(NI * NJ * sizeof(float)), *B = (float *)malloc(NI * NJ * sizeof(float));
  float *B_gpu = (float *)malloc(NI * NJ * sizeof(float));
  for (int i = 0; i < NI; i++) for (int j = 0; j < NJ; j++) A[i * NJ + j] = (float)((i * 7 + j * 3) % 29) / 29.0f;
  for (int i = 0; i < NI * NJ; i++) B[i] = 0.0f;
  float *A_d, *B_d;
  cudaMalloc(&A_d, NI * NJ * sizeof(float));
  cudaMalloc(&B_d, NI * NJ * sizeof(float));
  cudaMemcpy(A_d, A, NI * NJ * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemset(B_d, 0, NI * NJ * sizeof(float));
  dim3 block(TILE_X, TILE_Y);
  dim3 grid((NJ + TILE_X - 1) / TILE_X, (NI + TILE_Y - 1) / TILE_Y);
  convolution2D_kernel<<<grid, block>>>(A_d, B_d);
  cudaMemcpy(B_gpu, B_d, NI * NJ * sizeof(float), cudaMemcpyDeviceToHost);
  float c11 = +0.2f, c21 = +0.5f, c31 = -0.8f, c12 = -0.3f, c22 = +0.6f, c32 = -0.9f, c13 = +0.4f, c23 = +0.7f, c33 = +0.10f;
  for (int i = 1; i < NI - 1; i++)
    for (int j = 1; j < NJ - 1; j++)
      B[i * NJ + j] = c11 * A[(i - 1) * NJ + (j - 1)] + c21 * A[(i - 1) * NJ + (j + 0)] + c31 * A[(i - 1) * NJ + (j + 1)]
                    + c12 * A[(i + 0) * NJ + (j - 1)] + c22 * A[(i + 0) * NJ + (j + 0)] + c32 * A[(i + 0) * NJ + (j + 1)]
                    + c13 * A[(i + 1) * NJ + (j - 1)] + c23 * A[(i + 1) * NJ + (j + 0)] + c33 * A[(i + 1) * NJ + (j + 1)];
  int fail = compareResults(B, B_gpu, NI * NJ, "conv2d");
  printf("%s\n", fail ? "FAIL" : "PASS");
  cudaFree(A_d); cudaFree(B_d);
  free(A); free(B); free(B_gpu);
  return fail ? 1 : 0;
}
