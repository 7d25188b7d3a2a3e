// A kernel given host memory: located in the kernel and at the launch.
#include <stdlib.h>
__global__ void twice(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] = 2.0f * x[i];
}
int main(void) {
  float *h = (float *)malloc(64 * sizeof(float));
  twice<<<1, 64>>>(h, 64);
  cudaDeviceSynchronize();
  free(h);
  return 0;
}
