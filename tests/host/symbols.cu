// __constant__ and __device__ variables set and read by the host (scalars by name, arrays)
#include <stdio.h>
__constant__ float scale;
__constant__ int table[4];
__device__ int counter;
__global__ void k(float *x) { x[threadIdx.x] = scale * table[threadIdx.x % 4]; atomicAdd(&counter, 1); }
int main(void) {
  float s = 2.5f; int t[4] = {1, 2, 3, 4};
  cudaMemcpyToSymbol(scale, &s, sizeof(float));
  cudaMemcpyToSymbol(table, t, sizeof t);
  float *d; cudaMalloc(&d, 8 * sizeof(float));
  k<<<1, 8>>>(d);
  float h[8]; cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  int c; cudaMemcpyFromSymbol(&c, counter, sizeof(int));
  printf("%g %g %g %d\n", h[0], h[3], h[5], c);
  return 0;
}
