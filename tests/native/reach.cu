// Which buffers a launch reaches (native.c, mark_unreached): a kernel that uses only the
// pointers it is given leaves the program's other buffers uncopied; one that loads pointers
// from memory (a table of device pointers) may reach any buffer, and all are copied. Both run
// natively with --check all; the host prints checksums the interpreter must give too.
#include <stdio.h>
#include <cuda_runtime.h>
#define N 70000
float h[N], g[N];

__global__ void scale(float *a, float s, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) a[i] = a[i] * s + 1.0f;
}

__global__ void through_table(float **table, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) table[i & 1][i] += table[(i + 1) & 1][i] * 0.5f;
}

int main(void) {
  float *a, *b, *c, **t;
  for (int i = 0; i < N; i++) h[i] = (float)(i % 97) * 0.25f;
  cudaMalloc((void **)&a, sizeof h);
  cudaMalloc((void **)&b, sizeof h);
  cudaMalloc((void **)&c, sizeof h);
  cudaMalloc((void **)&t, 2 * sizeof(float *));
  cudaMemcpy(a, h, sizeof h, cudaMemcpyHostToDevice);
  cudaMemcpy(b, h, sizeof h, cudaMemcpyHostToDevice);
  cudaMemcpy(c, h, sizeof h, cudaMemcpyHostToDevice);
  float *pair[2] = {b, c};
  cudaMemcpy(t, pair, sizeof pair, cudaMemcpyHostToDevice);
  scale<<<(N + 255) / 256, 256>>>(a, 3.0f, N);
  through_table<<<(N + 255) / 256, 256>>>(t, N);
  scale<<<(N + 255) / 256, 256>>>(c, 0.5f, N);
  double sum[3] = {0, 0, 0};
  float *bufs[3] = {a, b, c};
  for (int k = 0; k < 3; k++) {
    cudaMemcpy(g, bufs[k], sizeof g, cudaMemcpyDeviceToHost);
    for (int i = 0; i < N; i++) sum[k] += g[i] * (double)(i % 7 + 1);
  }
  printf("reach: %.6f %.6f %.6f\n", sum[0], sum[1], sum[2]);
  return 0;
}
