// atomic*_system and atomic*_block as systemWideAtomics writes them (issue 29), on the
// interpreted route (both_scoped_atomics.cu adds a struct parameter, for the nvcc route).
#include <stdio.h>
__global__ void scoped(int *a) {
  atomicAdd_system(&a[0], 1);
  atomicMax_block(&a[1], threadIdx.x);
  atomicCAS_system(&a[2], 0, 5);
  atomicOr_block(&a[3], 1 << (threadIdx.x % 4));
  atomicSub_system(&a[4], 2);
  atomicExch_block(&a[5], 9);
}
int main() {
  int *a, h[6] = {0, 0, 0, 0, 100, 0};
  cudaMalloc((void **)&a, sizeof h);
  cudaMemcpy(a, h, sizeof h, cudaMemcpyHostToDevice);
  scoped<<<2, 32>>>(a);
  cudaMemcpy(h, a, sizeof h, cudaMemcpyDeviceToHost);
  int atomics = h[0] == 64 && h[1] == 31 && h[2] == 5 && h[3] == 15 && h[4] == 100 - 128 && h[5] == 9;
  printf("scoped atomics %s\n", atomics ? "ok" : "bad");
  return 0;
}
