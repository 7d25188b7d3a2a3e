// One buffer passed as both pointers: each thread reads and writes only its own element, so the
// original is defined. acc(d, d, n, 4) adds d[i] to itself 4 times: 1 -> 16.
#include <stdio.h>
#include <cuda_runtime.h>

__global__ void acc(float *out, const float *in, int n, int reps) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    for (int r = 0; r < reps; r++) out[i] += in[i];
}

int main(void) {
  int n = 1024;
  float h[1024];
  for (int i = 0; i < n; i++) h[i] = 1.0f;
  float *d;
  cudaMalloc((void **)&d, n * sizeof(float));
  cudaMemcpy(d, h, n * sizeof(float), cudaMemcpyHostToDevice);
  acc<<<4, 256>>>(d, d, n, 4);
  cudaMemcpy(h, d, n * sizeof(float), cudaMemcpyDeviceToHost);
  int wrong = 0;
  for (int i = 0; i < n; i++) wrong += h[i] != 16.0f;
  printf("acc: h[0] = %g, %d wrong\n", h[0], wrong);
  return wrong != 0;
}
