// atomic*_system and atomic*_block (systemWideAtomics writes them) and a __grid_constant__ struct
// parameter (LargeKernelParameter), as the samples write them (issue 29). A struct passed by value
// to a kernel needs the nvcc route: tests/front/run.sh runs this file on both routes.
#include <stdio.h>
typedef struct { int param[300]; } param_t;
__global__ void scoped(int *a) {
  atomicAdd_system(&a[0], 1);
  atomicMax_block(&a[1], threadIdx.x);
  atomicCAS_system(&a[2], 0, 5);
  atomicOr_block(&a[3], 1 << (threadIdx.x % 4));
  atomicSub_system(&a[4], 2);
  atomicExch_block(&a[5], 9);
}
__global__ void sum_param(__grid_constant__ const param_t p, int *result) {
  int tmp = 0;
  for (int i = 0; i < 300; ++i) tmp += p.param[i];
  *result = tmp;
}
int main() {
  int *a, h[6] = {0, 0, 0, 0, 100, 0}, *r, hr = 0;
  cudaMalloc((void **)&a, sizeof h);
  cudaMalloc((void **)&r, sizeof(int));
  cudaMemcpy(a, h, sizeof h, cudaMemcpyHostToDevice);
  scoped<<<2, 32>>>(a);
  param_t p;
  for (int i = 0; i < 300; i++) p.param[i] = i;
  sum_param<<<1, 1>>>(p, r);
  cudaMemcpy(h, a, sizeof h, cudaMemcpyDeviceToHost);
  cudaMemcpy(&hr, r, sizeof(int), cudaMemcpyDeviceToHost);
  int atomics = h[0] == 64 && h[1] == 31 && h[2] == 5 && h[3] == 15 && h[4] == 100 - 128 && h[5] == 9;
  printf("scoped atomics %s, grid_constant parameter %s\n", atomics ? "ok" : "bad", hr == 299 * 300 / 2 ? "ok" : "bad");
  return 0;
}
