// __constant__ and __device__ variables set and read through cudaMemcpyToSymbol/FromSymbol
#include <cstdio>
#include <vector>
__constant__ float weights[3];
__device__ int offset;
__device__ int hits;
__global__ void stencil(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x + offset;
  if (i > 0 && i < n - 1) {
    out[i] = weights[0] * in[i - 1] + weights[1] * in[i] + weights[2] * in[i + 1];
    atomicAdd(&hits, 1);
  }
}
int main() {
  const int n = 300;
  std::vector<float> h(n);
  for (int i = 0; i < n; i++) h[i] = (float)i;
  float w[3] = {1.0f, 2.0f, 3.0f};
  int off = 1;
  cudaMemcpyToSymbol(weights, w, sizeof w);
  cudaMemcpyToSymbol(offset, &off, sizeof off);
  float *in, *out;
  cudaMalloc(&in, n * sizeof(float));
  cudaMalloc(&out, n * sizeof(float));
  cudaMemset(out, 0, n * sizeof(float));
  cudaMemcpy(in, h.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  stencil<<<3, 100>>>(in, out, n);
  cudaMemcpy(h.data(), out, n * sizeof(float), cudaMemcpyDeviceToHost);
  int count = 0;
  cudaMemcpyFromSymbol(&count, hits, sizeof count);
  // i = 10: 9 + 20 + 33 = 62; threads 0..298 shifted by 1 reach 1..298: 298 hits
  printf("symbol: out[10] = %g, hits = %d, %s\n", h[10], count, h[10] == 62.0f && count == 298 ? "PASS" : "FAIL");
  return 0;
}
