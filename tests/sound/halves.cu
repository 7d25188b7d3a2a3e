// Two pointers into one allocation, the first argument at the higher address: out is the second
// half of a, in the first (k(a + n, a, n)). Recorded as out = alias(in, n * 4); the halves do not
// overlap, so the original is defined; each output is 3 * in + 1.
#include <stdio.h>
#include <stdlib.h>

__global__ void k(float *out, const float *in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = 3.0f * in[i] + 1.0f;
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 1000;
  float *h = (float *)malloc(2 * n * sizeof(float)), *a;
  for (int i = 0; i < 2 * n; i++) h[i] = (float)(i % 17);
  cudaMalloc((void **)&a, 2 * n * sizeof(float));
  cudaMemcpy(a, h, 2 * n * sizeof(float), cudaMemcpyHostToDevice);
  k<<<(n + 127) / 128, 128>>>(a + n, a, n);
  cudaMemcpy(h, a, 2 * n * sizeof(float), cudaMemcpyDeviceToHost);
  int wrong = 0;
  for (int i = 0; i < n; i++) wrong += h[n + i] != 3.0f * (float)(i % 17) + 1.0f;
  printf("halves: n=%d, %d wrong\n", n, wrong);
  return wrong != 0;
}
