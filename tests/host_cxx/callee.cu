// main is C carve reads; a host function it calls is C++ (std::vector) the front end skips: the
// interpreter could not run the call, so --route auto builds the program with nvcc
#include <cstdio>
#include <vector>

__global__ void twice(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] = 2.0f * x[i];
}

static double total(const float *x, int n) {
  std::vector<float> v(x, x + n);
  double s = 0;
  for (float e : v) s += e;
  return s;
}

int main(void) {
  int n = 1000;
  float *h = (float *)malloc(n * sizeof(float)), *d;
  for (int i = 0; i < n; i++) h[i] = (float)(i % 10);
  cudaMalloc(&d, n * sizeof(float));
  cudaMemcpy(d, h, n * sizeof(float), cudaMemcpyHostToDevice);
  twice<<<(n + 255) / 256, 256>>>(d, n);
  cudaMemcpy(h, d, n * sizeof(float), cudaMemcpyDeviceToHost);
  double s = total(h, n);
  printf("callee: %s (%.0f)\n", s == 9000 ? "PASSED" : "FAILED", s);
  cudaFree(d);
  free(h);
  return s != 9000;
}
