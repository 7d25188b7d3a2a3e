// a kernel that writes one element past its buffer: located, the launch named, summed up
#include <cstdio>
#include <vector>
__global__ void fill(int *a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i <= n) a[i] = i;   // off by one
}
int main() {
  const int n = 1000;
  int *d;
  cudaMalloc(&d, n * sizeof(int));
  fill<<<4, 256>>>(d, n);
  cudaError_t e = cudaDeviceSynchronize();
  printf("after the launch: %s\n", cudaGetErrorName(e));
  std::vector<int> h(n);
  e = cudaMemcpy(h.data(), d, n * sizeof(int), cudaMemcpyDeviceToHost);
  printf("copy: %s\n", cudaGetErrorName(e));
  return e == cudaSuccess ? 0 : 3;
}
