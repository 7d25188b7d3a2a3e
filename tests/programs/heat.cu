/* A heat equation on an NX x NY plate: the initial field by a kernel of this file, STEPS time
 * steps of two kernels defined in heat_kernels.cuh (another source), a CPU reference. */
#include "common.h"
#include <cuda_runtime.h>
#include "heat_kernels.cuh"

#ifndef NX
#define NX 64
#endif
#ifndef NY
#define NY 48
#endif
#ifndef STEPS
#define STEPS 3
#endif

__global__ void heat_init(float *u, float *v, int nx, int ny) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < nx && y < ny) {
    u[y * nx + x] = (float)((x * 7 + y * 3) % 10) / 10.0f;
    v[y * nx + x] = u[y * nx + x];
  }
}

int main(void) {
  float *u = (float *)malloc(NX * NY * sizeof(float)), *v = (float *)malloc(NX * NY * sizeof(float));
  float *got = (float *)malloc(NX * NY * sizeof(float));
  float *u_d, *v_d;
  cudaMalloc((void **)&u_d, sizeof(float) * NX * NY);
  cudaMalloc((void **)&v_d, sizeof(float) * NX * NY);
  dim3 block(32, 4), grid((NX + 31) / 32, (NY + 3) / 4);
  heat_init<<<grid, block>>>(u_d, v_d, NX, NY);
  for (int s = 0; s < STEPS; s++) {
    heat_step<<<grid, block>>>(u_d, v_d, NX, NY, 0.2f);
    heat_copy<<<grid, block>>>(u_d, v_d, NX, NY);
  }
  cudaMemcpy(got, u_d, sizeof(float) * NX * NY, cudaMemcpyDeviceToHost);
  for (int y = 0; y < NY; y++)
    for (int x = 0; x < NX; x++) u[y * NX + x] = v[y * NX + x] = (float)((x * 7 + y * 3) % 10) / 10.0f;
  for (int s = 0; s < STEPS; s++) {
    for (int y = 1; y < NY - 1; y++)
      for (int x = 1; x < NX - 1; x++)
        v[y * NX + x] = u[y * NX + x] + 0.2f * (u[y * NX + x - 1] + u[y * NX + x + 1] + u[(y - 1) * NX + x] + u[(y + 1) * NX + x] - 4.0f * u[y * NX + x]);
    for (int y = 1; y < NY - 1; y++)
      for (int x = 1; x < NX - 1; x++) u[y * NX + x] = v[y * NX + x];
  }
  int fail = compareResults(u, got, NX * NY, "heat u");
  printf("%s\n", fail ? "FAIL" : "PASS");
  cudaFree(u_d); cudaFree(v_d);
  free(u); free(v); free(got);
  return fail ? 1 : 0;
}
