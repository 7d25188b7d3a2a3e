/* Square matrix product with n from the command line; the accumulator declared before the
 * indices, early return, the operands read through row pointers. */
#include <stdio.h>
#include <stdlib.h>
#include <cuda_runtime.h>

__global__ void matmul(const float *a, const float *b, float *c, int n) {
  float sum = 0.0f;
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= n || col >= n) return;
  const float *arow = a + row * n;
  for (int k = 0; k < n; ++k) sum += arow[k] * b[k * n + col];
  c[row * n + col] = sum;
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 64;
  if (n <= 0 || n > 4096) { fprintf(stderr, "bad n\n"); return 2; }
  size_t bytes = (size_t)n * n * sizeof(float);
  float *a = (float *)malloc(bytes), *b = (float *)malloc(bytes), *c = (float *)malloc(bytes);
  for (int i = 0; i < n * n; i++) { a[i] = (float)((i * 7) % 23 - 11) / 8.0f; b[i] = (float)((i * 5) % 19 - 9) / 4.0f; }
  float *da, *db, *dc;
  cudaMalloc(&da, bytes); cudaMalloc(&db, bytes); cudaMalloc(&dc, bytes);
  cudaMemcpy(da, a, bytes, cudaMemcpyHostToDevice);
  cudaMemcpy(db, b, bytes, cudaMemcpyHostToDevice);
  dim3 threads(16, 16);
  dim3 blocks((n + 15) / 16, (n + 15) / 16);
  matmul<<<blocks, threads>>>(da, db, dc, n);
  cudaMemcpy(c, dc, bytes, cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) {
      double s = 0, mag = 0;
      for (int k = 0; k < n; k++) { s += (double)a[i * n + k] * b[k * n + j]; mag += fabs((double)a[i * n + k] * b[k * n + j]); }
      if (fabs(c[i * n + j] - s) > 1e-5 * mag + 1e-6) bad++;
    }
  printf("n=%d: %d wrong\n%s\n", n, bad, bad ? "FAIL" : "PASS");
  cudaFree(da); cudaFree(db); cudaFree(dc);
  free(a); free(b); free(c);
  return bad ? 1 : 0;
}
