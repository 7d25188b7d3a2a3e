// 100 distinct launches of one kernel (its scalar changes every time), then two of another: the
// launches past the 64th are recorded and can be analyzed (--launch 102, --kernel last).
#include <cstdio>
__global__ void fill(float *a, int n, float v) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) a[i] = v;
}
__global__ void last(float *a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) a[i] *= 2.0f;
}
int main() {
  int n = 256;
  float *d;
  cudaMalloc(&d, n * sizeof(float));
  for (int t = 0; t < 100; t++) fill<<<1, 256>>>(d, n, (float)t);
  last<<<1, 256>>>(d, n);
  last<<<2, 128>>>(d, n);
  float h[256];
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  printf("%g\n", h[0]);
  cudaFree(d);
  return 0;
}
