/* FDTD 2-D: TMAX time steps of three stencil kernels launched from a host loop, the first with
 * the step counter as an argument (ey's first row from the excitation fict[t]). */
#include "common.h"
#include <cuda_runtime.h>

#ifndef TMAX
#define TMAX 4
#endif
#ifndef NX
#define NX 48
#endif
#ifndef NY
#define NY 40
#endif

__global__ void fdtd_step1(const float *fict, float *ey, const float *hz, int t, int nx, int ny) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  int i = blockIdx.y * blockDim.y + threadIdx.y;
  if (i < nx && j < ny) {
    if (i == 0) ey[i * ny + j] = fict[t];
    else ey[i * ny + j] = ey[i * ny + j] - 0.5f * (hz[i * ny + j] - hz[(i - 1) * ny + j]);
  }
}

__global__ void fdtd_step2(float *ex, const float *hz, int nx, int ny) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  int i = blockIdx.y * blockDim.y + threadIdx.y;
  if (i < nx && j > 0 && j < ny) ex[i * (ny + 1) + j] = ex[i * (ny + 1) + j] - 0.5f * (hz[i * ny + j] - hz[i * ny + (j - 1)]);
}

__global__ void fdtd_step3(const float *ex, const float *ey, float *hz, int nx, int ny) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  int i = blockIdx.y * blockDim.y + threadIdx.y;
  if (i < nx - 1 && j < ny - 1)
    hz[i * ny + j] = hz[i * ny + j] - 0.7f * (ex[i * (ny + 1) + (j + 1)] - ex[i * (ny + 1) + j] + ey[(i + 1) * ny + j] - ey[i * ny + j]);
}

int main(void) {
  float *fict = (float *)malloc(TMAX * sizeof(float));
  float *ex = (float *)malloc(NX * (NY + 1) * sizeof(float)), *ey = (float *)malloc(NX * NY * sizeof(float));
  float *hz = (float *)malloc(NX * NY * sizeof(float)), *hz_gpu = (float *)malloc(NX * NY * sizeof(float));
  for (int t = 0; t < TMAX; t++) fict[t] = (float)t;
  for (int i = 0; i < NX; i++) {
    for (int j = 0; j < NY + 1; j++) ex[i * (NY + 1) + j] = ((float)i * (j + 1) + 1) / NX;
    for (int j = 0; j < NY; j++) { ey[i * NY + j] = ((float)(i - 1) * (j + 2) + 2) / NX; hz[i * NY + j] = ((float)(i - 9) * (j + 4) + 3) / NX; }
  }
  float *fict_d, *ex_d, *ey_d, *hz_d;
  cudaMalloc((void **)&fict_d, sizeof(float) * TMAX);
  cudaMalloc((void **)&ex_d, sizeof(float) * NX * (NY + 1));
  cudaMalloc((void **)&ey_d, sizeof(float) * NX * NY);
  cudaMalloc((void **)&hz_d, sizeof(float) * NX * NY);
  cudaMemcpy(fict_d, fict, sizeof(float) * TMAX, cudaMemcpyHostToDevice);
  cudaMemcpy(ex_d, ex, sizeof(float) * NX * (NY + 1), cudaMemcpyHostToDevice);
  cudaMemcpy(ey_d, ey, sizeof(float) * NX * NY, cudaMemcpyHostToDevice);
  cudaMemcpy(hz_d, hz, sizeof(float) * NX * NY, cudaMemcpyHostToDevice);
  dim3 block(32, 8);
  dim3 grid((NY + 31) / 32, (NX + 7) / 8);
  for (int t = 0; t < TMAX; t++) {
    fdtd_step1<<<grid, block>>>(fict_d, ey_d, hz_d, t, NX, NY);
    fdtd_step2<<<grid, block>>>(ex_d, hz_d, NX, NY);
    fdtd_step3<<<grid, block>>>(ex_d, ey_d, hz_d, NX, NY);
  }
  cudaMemcpy(hz_gpu, hz_d, sizeof(float) * NX * NY, cudaMemcpyDeviceToHost);
  for (int t = 0; t < TMAX; t++) {
    for (int j = 0; j < NY; j++) ey[j] = fict[t];
    for (int i = 1; i < NX; i++)
      for (int j = 0; j < NY; j++) ey[i * NY + j] = ey[i * NY + j] - 0.5f * (hz[i * NY + j] - hz[(i - 1) * NY + j]);
    for (int i = 0; i < NX; i++)
      for (int j = 1; j < NY; j++) ex[i * (NY + 1) + j] = ex[i * (NY + 1) + j] - 0.5f * (hz[i * NY + j] - hz[i * NY + (j - 1)]);
    for (int i = 0; i < NX - 1; i++)
      for (int j = 0; j < NY - 1; j++)
        hz[i * NY + j] = hz[i * NY + j] - 0.7f * (ex[i * (NY + 1) + (j + 1)] - ex[i * (NY + 1) + j] + ey[(i + 1) * NY + j] - ey[i * NY + j]);
  }
  int fail = compareResults(hz, hz_gpu, NX * NY, "fdtd hz");
  printf("%s\n", fail ? "FAIL" : "PASS");
  cudaFree(fict_d); cudaFree(ex_d); cudaFree(ey_d); cudaFree(hz_d);
  free(fict); free(ex); free(ey); free(hz); free(hz_gpu);
  return fail ? 1 : 0;
}
