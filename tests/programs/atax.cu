/* y = A^T (A x): two kernels, tmp accumulated in global memory, then the transposed walk. */
#include "common.h"
#include <cuda_runtime.h>

#ifndef NX
#define NX 128
#endif
#ifndef NY
#define NY 96
#endif
#define DIM_THREAD_BLOCK_X 256
#define DIM_THREAD_BLOCK_Y 1

__global__ void atax_kernel1(float *A, float *x, float *tmp) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < NX) {
    tmp[i] = 0;
    int j;
    for (j = 0; j < NY; j++) {
      tmp[i] += A[i * NY + j] * x[j];
    }
  }
}

__global__ void atax_kernel2(float *A, float *y, float *tmp) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j < NY) {
    int i;
    for (i = 0; i < NX; i++) {
      y[j] += A[i * NY + j] * tmp[i];
    }
  }
}

int main(void) {
  float *A = (float *)malloc(NX * NY * sizeof(float));
  float *x = (float *)malloc(NY * sizeof(float));
  float *y = (float *)malloc(NY * sizeof(float));
  float *y_gpu = (float *)malloc(NY * sizeof(float));
  float *tmp = (float *)malloc(NX * sizeof(float));
  for (int j = 0; j < NY; j++) x[j] = j * 3.14159f / NY;
  for (int i = 0; i < NX; i++) for (int j = 0; j < NY; j++) A[i * NY + j] = ((float)i * (j + 1)) / NX - 1.0f;
  for (int j = 0; j < NY; j++) y[j] = 0;
  float *A_gpu, *x_gpu, *y_d, *tmp_gpu;
  cudaMalloc((void **)&A_gpu, sizeof(float) * NX * NY);
  cudaMalloc((void **)&x_gpu, sizeof(float) * NY);
  cudaMalloc((void **)&y_d, sizeof(float) * NY);
  cudaMalloc((void **)&tmp_gpu, sizeof(float) * NX);
  cudaMemcpy(A_gpu, A, sizeof(float) * NX * NY, cudaMemcpyHostToDevice);
  cudaMemcpy(x_gpu, x, sizeof(float) * NY, cudaMemcpyHostToDevice);
  cudaMemset(y_d, 0, sizeof(float) * NY);
  dim3 block(DIM_THREAD_BLOCK_X, DIM_THREAD_BLOCK_Y);
  dim3 grid1((size_t)(ceil(((float)NX) / ((float)block.x))), 1);
  dim3 grid2((size_t)(ceil(((float)NY) / ((float)block.x))), 1);
  atax_kernel1<<<grid1, block>>>(A_gpu, x_gpu, tmp_gpu);
  cudaDeviceSynchronize();
  atax_kernel2<<<grid2, block>>>(A_gpu, y_d, tmp_gpu);
  cudaDeviceSynchronize();
  cudaMemcpy(y_gpu, y_d, sizeof(float) * NY, cudaMemcpyDeviceToHost);
  for (int i = 0; i < NX; i++) {
    tmp[i] = 0;
    for (int j = 0; j < NY; j++) tmp[i] = tmp[i] + A[i * NY + j] * x[j];
    for (int j = 0; j < NY; j++) y[j] = y[j] + A[i * NY + j] * tmp[i];
  }
  int fail = compareResults(y, y_gpu, NY, "atax");
  printf("%s\n", fail ? "FAIL" : "PASS");
  cudaFree(A_gpu); cudaFree(x_gpu); cudaFree(y_d); cudaFree(tmp_gpu);
  free(A); free(x); free(y); free(y_gpu); free(tmp);
  return fail ? 1 : 0;
}
