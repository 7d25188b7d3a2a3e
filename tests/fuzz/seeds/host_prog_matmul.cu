// Tiled matrix multiply: the GPU result checked against a CPU reference, timed with events.
#include <stdio.h>
#include <stdlib.h>
#include <math.h>
#include <cuda_runtime.h>

#define TILE 16

#define CUDA_CHECK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { \
    fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e)); exit(1); } } while (0)

__global__ void matmul_tiled(const float *A, const float *B, float *C, int n) {
  __shared__ float As[TILE][TILE];
  __shared__ float Bs[TILE][TILE];
  int row = blockIdx.y * TILE + threadIdx.y;
  int col = blockIdx.x * TILE + threadIdx.x;
  float acc = 0.0f;
  for (int t = 0; t < (n + TILE - 1) / TILE; t++) {
    int ac = t * TILE + threadIdx.x, br = t * TILE + threadIdx.y;
    As[threadIdx.y][threadIdx.x] = (row < n && ac < n) ? A[row * n + ac] : 0.0f;
    Bs[threadIdx.y][threadIdx.x] = (br < n && col < n) ? B[br * n + col] : 0.0f;
    __syncthreads();
    for (int k = 0; k < TILE; k++) acc += As[threadIdx.y][k] * Bs[k][threadIdx.x];
    __syncthreads();
  }
  if (row < n && col < n) C[row * n + col] = acc;
}

static void matmul_cpu(const float *A, const float *B, float *C, int n) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) {
      float s = 0.0f;
      for (int k = 0; k < n; k++) s += A[i * n + k] * B[k * n + j];
      C[i * n + j] = s;
    }
}

int main(int argc, char *argv[]) {
  int n = argc > 1 ? atoi(argv[1]) : 40;
  size_t bytes = (size_t)n * n * sizeof(float);
  float *hA = (float *)malloc(bytes), *hB = (float *)malloc(bytes);
  float *hC = (float *)malloc(bytes), *ref = (float *)malloc(bytes);
  srand(2024);
  for (int i = 0; i < n * n; i++) {
    hA[i] = (float)(rand() % 100) / 50.0f - 1.0f;
    hB[i] = (float)(rand() % 100) / 50.0f - 1.0f;
  }
  float *dA, *dB, *dC;
  CUDA_CHECK(cudaMalloc((void **)&dA, bytes));
  CUDA_CHECK(cudaMalloc((void **)&dB, bytes));
  CUDA_CHECK(cudaMalloc((void **)&dC, bytes));
  CUDA_CHECK(cudaMemcpy(dA, hA, bytes, cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(dB, hB, bytes, cudaMemcpyHostToDevice));
  dim3 block(TILE, TILE);
  dim3 grid((n + TILE - 1) / TILE, (n + TILE - 1) / TILE);
  cudaEvent_t start, stop;
  cudaEventCreate(&start);
  cudaEventCreate(&stop);
  cudaEventRecord(start);
  matmul_tiled<<<grid, block>>>(dA, dB, dC, n);
  cudaEventRecord(stop);
  CUDA_CHECK(cudaGetLastError());
  cudaEventSynchronize(stop);
  float ms = 0;
  cudaEventElapsedTime(&ms, start, stop);
  CUDA_CHECK(cudaMemcpy(hC, dC, bytes, cudaMemcpyDeviceToHost));
  matmul_cpu(hA, hB, ref, n);
  double max_err = 0;
  for (int i = 0; i < n * n; i++) {
    double e = fabs((double)hC[i] - (double)ref[i]);
    if (e > max_err) max_err = e;
  }
  printf("matmul %dx%d: max |gpu - cpu| = %.2e, %s\n", n, n, max_err, max_err < 1e-3 ? "PASS" : "FAIL");
  printf("events: %s\n", ms > 0 ? "elapsed time measured" : "no time");
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  cudaFree(dA); cudaFree(dB); cudaFree(dC);
  free(hA); free(hB); free(hC); free(ref);
  return max_err < 1e-3 ? 0 : 1;
}
