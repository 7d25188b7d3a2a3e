// A factorization-style sweep: each step launches over what is left, and the last step's grid
// is empty (<<<0, 256>>>). CUDA refuses that launch with cudaErrorInvalidConfiguration and the
// program goes on; carve must do the same (issue 26, item 8).
#include <cstdio>
__global__ void step(float *a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) a[i] += 1.0f;
}
int main() {
  int n = 1000;
  float *d;
  cudaMalloc(&d, n * sizeof(float));
  cudaMemset(d, 0, n * sizeof(float));
  for (int left = n; left >= 0; left -= 250) {
    step<<<(left + 255) / 256, 256>>>(d, left);
    cudaError_t e = cudaGetLastError();
    if (e != cudaSuccess) printf("left %d: %s (%s)\n", left, cudaGetErrorString(e), e == cudaErrorInvalidConfiguration ? "invalid configuration" : "other");
  }
  float h[1000];
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  printf("h[0]=%g h[999]=%g\n", h[0], h[999]);
  cudaFree(d);
  return 0;
}
