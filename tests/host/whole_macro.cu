/* A launch whose arguments come from macros (BLAS-style leading dimensions), in a program whose
 * host code runs long after its launch, as bench/holdout3/sgemm_colmajor.cu at 2048: optimize
 * stops the host program (--max-seconds) once the launch is recorded and writes the whole program
 * with the optimized kernel (the launch's test copies `LD` as written: the same expression twice);
 * with a call among the arguments (tests/optimize_cli.sh makes one) the kernel is kept as written,
 * said (a call may have a side effect). */
#include <stdio.h>
#include <stdlib.h>
#include <cuda_runtime.h>

#define N 8192
#define PAD 0
#define LD (N + PAD)
#define REPS 3000

__global__ void scale(int n, float a, float *x, int ld) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && i < ld) x[i] = a * x[i];
}

int main(void) {
  float *h = (float *)malloc(sizeof(float) * LD), *d;
  for (int i = 0; i < LD; i++) h[i] = (float)(i % 100);
  cudaMalloc((void **)&d, sizeof(float) * LD);
  cudaMemcpy(d, h, sizeof(float) * LD, cudaMemcpyHostToDevice);
  scale<<<(N + 255) / 256, 256>>>(N, 2.0f, d, LD);
  float *out = (float *)malloc(sizeof(float) * LD);
  cudaMemcpy(out, d, sizeof(float) * LD, cudaMemcpyDeviceToHost);
  /* a slow check: REPS rounds over the output */
  int bad = 0;
  for (int r = 0; r < REPS; r++)
    for (int i = 0; i < N; i++) bad += r == 0 && out[i] != 2.0f * h[i];
  printf("whole_macro: %d wrong, %s\n", bad, bad ? "FAILED" : "PASSED");
  return bad != 0;
}
