// misuses of the runtime the real one reports as errors: a copy past an allocation, a double free
#include <cstdio>
__global__ void k(float *a) { a[threadIdx.x] = 1.0f; }
int main() {
  float *d, h[64] = {0};
  cudaMalloc(&d, 32 * sizeof(float));
  cudaError_t e1 = cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice);   // 64 floats into 32
  k<<<1, 32>>>(d);
  cudaError_t e2 = cudaMemcpy(h, d, 32 * sizeof(float), cudaMemcpyDeviceToHost);
  cudaFree(d);
  cudaError_t e3 = cudaFree(d);
  printf("%s %s %s h[31] = %g\n", cudaGetErrorName(e1), cudaGetErrorName(e2), cudaGetErrorName(e3), h[31]);
  return 0;
}
