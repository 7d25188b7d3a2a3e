// Template kernels launched from host code as people write them (issue 27, holdout5 atb):
// `K<float><<<g, b>>>(...)` with the arguments given, `template <class T, int B>` with a value
// argument, and `K<<<g, b>>>(...)` with T deduced from the launch's arguments. Each instance runs.
// The host buffers come from `new T[n]` and go back by `delete[]`, as atb.cu's do.
#include <stdio.h>
#include <stdlib.h>
template <typename T>
__global__ void scale(const T *x, T *y, T a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i];
}
template <class T, int B>
__global__ void block_sum(const T *x, T *s, int n) {
  int i = blockIdx.x * B + threadIdx.x;
  if (i < n) atomicAdd(s, x[i]);
}
int main() {
  const int n = 100;
  float *hx = (float *)malloc(sizeof(float) * n), hy[n], hs = 0;
  int *ix = new int[n], iy[n];
  for (int i = 0; i < n; i++) {
    hx[i] = (float)i;
    ix[i] = i;
  }
  float *x, *y, *s;
  int *dx, *dy;
  cudaMalloc((void **)&x, sizeof(float) * n);
  cudaMalloc((void **)&y, sizeof(float) * n);
  cudaMalloc((void **)&s, sizeof(float));
  cudaMalloc((void **)&dx, sizeof(int) * n);
  cudaMalloc((void **)&dy, sizeof(int) * n);
  cudaMemcpy(x, hx, sizeof(float) * n, cudaMemcpyHostToDevice);
  cudaMemcpy(dx, ix, sizeof(int) * n, cudaMemcpyHostToDevice);
  cudaMemcpy(s, &hs, sizeof(float), cudaMemcpyHostToDevice);
  scale<float><<<(n + 31) / 32, 32>>>(x, y, 2.0f, n);
  scale<<<(n + 63) / 64, 64>>>(dx, dy, 3, n); /* T = int, deduced */
  block_sum<float, 32><<<(n + 31) / 32, 32>>>(x, s, n);
  cudaMemcpy(hy, y, sizeof(float) * n, cudaMemcpyDeviceToHost);
  cudaMemcpy(iy, dy, sizeof(int) * n, cudaMemcpyDeviceToHost);
  cudaMemcpy(&hs, s, sizeof(float), cudaMemcpyDeviceToHost);
  int good = 1;
  for (int i = 0; i < n; i++) good &= hy[i] == 2.0f * i && iy[i] == 3 * i;
  printf("template launches %s\n", good ? "ok" : "bad");
  printf("template value argument %s\n", hs == 4950.0f ? "ok" : "bad");
  free(hx);
  delete[] ix;
  return 0;
}
