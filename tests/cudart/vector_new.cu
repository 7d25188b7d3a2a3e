// C++ host code carve's interpreter does not run: std::vector, new/delete, a class, iostream.
#include <cstdio>
#include <iostream>
#include <vector>

__global__ void saxpy(float a, const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}

struct Checker {
  int wrong = 0;
  void expect(float got, float want) { if (got != want) wrong++; }
};

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 1000;
  std::vector<float> x(n), y(n);
  for (int i = 0; i < n; i++) { x[i] = (float)i; y[i] = 1.0f; }
  float *dx, *dy;
  cudaMalloc(&dx, n * sizeof(float));
  cudaMalloc(&dy, n * sizeof(float));
  cudaMemcpy(dx, x.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(dy, y.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  saxpy<<<(n + 127) / 128, 128>>>(2.0f, dx, dy, n);
  cudaError_t e = cudaGetLastError();
  if (e != cudaSuccess) { std::cerr << "launch: " << cudaGetErrorString(e) << "\n"; return 1; }
  float *out = new float[n];
  cudaMemcpy(out, dy, n * sizeof(float), cudaMemcpyDeviceToHost);
  Checker c;
  for (int i = 0; i < n; i++) c.expect(out[i], 2.0f * i + 1.0f);
  std::cout << "saxpy " << n << ": " << (c.wrong ? "FAIL" : "PASS") << std::endl;
  delete[] out;
  cudaFree(dx);
  cudaFree(dy);
  return c.wrong ? 1 : 0;
}
