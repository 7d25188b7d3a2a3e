/* BiCG's two mat-vecs over one matrix: s = A^T r (a thread per column, a register sum) and
 * q = A p (a thread per row, the sum kept in q after an early return), different block sizes. */
#include "common.h"
#include <cuda_runtime.h>

#ifndef NX
#define NX 120
#endif
#ifndef NY
#define NY 96
#endif

__global__ void bicg_kernel1(const float *A, const float *r, float *s, int nx, int ny) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j < ny) {
    float acc = 0.0f;
    for (int i = 0; i < nx; i++) acc += r[i] * A[i * ny + j];
    s[j] = acc;
  }
}

__global__ void bicg_kernel2(const float *A, const float *p, float *q, int nx, int ny) {
  int i = threadIdx.x + blockDim.x * blockIdx.x;
  if (i >= nx) return;
  q[i] = 0.0f;
  for (int j = 0; j < ny; j++) q[i] += A[i * ny + j] * p[j];
}

int main(void) {
  float *A = (float *)malloc(NX * NY * sizeof(float));
  float *r = (float *)malloc(NX * sizeof(float)), *p = (float *)malloc(NY * sizeof(float));
  float *s = (float *)malloc(NY * sizeof(float)), *q = (float *)malloc(NX * sizeof(float));
  float *s_gpu = (float *)malloc(NY * sizeof(float)), *q_gpu = (float *)malloc(NX * sizeof(float));
  for (int i = 0; i < NX; i++) r[i] = (float)(i % 11) / 10.0f - 0.5f;
  for (int j = 0; j < NY; j++) p[j] = (float)(j % 7) / 6.0f - 0.4f;
  for (int i = 0; i < NX; i++)
    for (int j = 0; j < NY; j++) A[i * NY + j] = (float)((i * (j + 1)) % 19) / 19.0f;
  float *A_d, *r_d, *p_d, *s_d, *q_d;
  cudaMalloc((void **)&A_d, sizeof(float) * NX * NY);
  cudaMalloc((void **)&r_d, sizeof(float) * NX);
  cudaMalloc((void **)&p_d, sizeof(float) * NY);
  cudaMalloc((void **)&s_d, sizeof(float) * NY);
  cudaMalloc((void **)&q_d, sizeof(float) * NX);
  cudaMemcpy(A_d, A, sizeof(float) * NX * NY, cudaMemcpyHostToDevice);
  cudaMemcpy(r_d, r, sizeof(float) * NX, cudaMemcpyHostToDevice);
  cudaMemcpy(p_d, p, sizeof(float) * NY, cudaMemcpyHostToDevice);
  bicg_kernel1<<<(NY + 255) / 256, 256>>>(A_d, r_d, s_d, NX, NY);
  bicg_kernel2<<<(NX + 63) / 64, 64>>>(A_d, p_d, q_d, NX, NY);
  cudaMemcpy(s_gpu, s_d, sizeof(float) * NY, cudaMemcpyDeviceToHost);
  cudaMemcpy(q_gpu, q_d, sizeof(float) * NX, cudaMemcpyDeviceToHost);
  for (int j = 0; j < NY; j++) s[j] = 0.0f;
  for (int i = 0; i < NX; i++) {
    q[i] = 0.0f;
    for (int j = 0; j < NY; j++) { s[j] += r[i] * A[i * NY + j]; q[i] += A[i * NY + j] * p[j]; }
  }
  int fail = compareResults(s, s_gpu, NY, "bicg s") + compareResults(q, q_gpu, NX, "bicg q");
  printf("%s\n", fail ? "FAIL" : "PASS");
  cudaFree(A_d); cudaFree(r_d); cudaFree(p_d); cudaFree(s_d); cudaFree(q_d);
  free(A); free(r); free(p); free(s); free(q); free(s_gpu); free(q_gpu);
  return fail ? 1 : 0;
}
