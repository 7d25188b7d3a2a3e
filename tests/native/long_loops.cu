// Two launches of few threads (2048, below the native engine's threshold of 65536) whose loops
// make each longer than the interpreter's slice (NATIVE_SLICE_SECONDS): the first runs natively
// after the slice, the second (another kernel) too; a recording command (analyze) reaches and
// records both. The host checks three threads of each against its own loop.
#include <stdio.h>
#include <stdlib.h>
#include <cuda_runtime.h>

#ifndef ITERS
#define ITERS 200000
#endif
#define THREADS 2048

__global__ void spin(unsigned *out) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x, x = i, acc = 0;
  for (int k = 0; k < ITERS; k++) {
    x = x * 1103515245u + 12345u;
    acc ^= x >> 16;
  }
  out[i] = acc;
}

__global__ void mix(const unsigned *in, unsigned *out) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x, acc = in[i];
  for (int k = 0; k < ITERS; k++) acc = acc * 31u + in[(i + k) % THREADS];
  out[i] = acc;
}

static unsigned spin_host(unsigned i) {
  unsigned x = i, acc = 0;
  for (int k = 0; k < ITERS; k++) {
    x = x * 1103515245u + 12345u;
    acc ^= x >> 16;
  }
  return acc;
}

int main(void) {
  unsigned *a, *b, h[THREADS], g[THREADS];
  cudaMalloc((void **)&a, sizeof h);
  cudaMalloc((void **)&b, sizeof h);
  spin<<<THREADS / 32, 32>>>(a);
  mix<<<THREADS / 32, 32>>>(a, b);
  cudaMemcpy(h, a, sizeof h, cudaMemcpyDeviceToHost);
  cudaMemcpy(g, b, sizeof g, cudaMemcpyDeviceToHost);
  int bad = 0;
  unsigned at[3] = {0, 1000, THREADS - 1};
  for (int t = 0; t < 3; t++) {
    unsigned i = at[t];
    if (h[i] != spin_host(i)) bad++;
  }
  /* mix of thread 5 from spin's outputs (already checked on three; here all of them as given) */
  unsigned acc = h[5];
  for (int k = 0; k < ITERS; k++) acc = acc * 31u + h[(5 + k) % THREADS];
  if (acc != g[5]) bad++;
  printf(bad ? "long_loops: FAILED\n" : "long_loops: PASSED\n");
  cudaFree(a);
  cudaFree(b);
  return bad != 0;
}
