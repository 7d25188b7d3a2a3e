/* A switch whose value matches no case and that has no default goes on after the switch (C11
 * 6.8.4.2p5): carve's interpreter ended the thread there, so the code after it never ran and its
 * writes were missing (a silent wrong answer, found while testing shfl_scan's lambda). */
#include <stdio.h>
__device__ unsigned pick(unsigned i) { switch (i) { case 0: return 10; case 1: return 11; } return 99; }
__global__ void k(unsigned *b) {
  unsigned i = threadIdx.x + 5, r = 7;
  switch (i) { case 0: r = 1; break; case 2: r = 2; break; }
  b[threadIdx.x] = r + pick(i) + pick(1);   /* 7 + 99 + 11 */
}
int main(void) {
  unsigned *d, h[4];
  cudaMalloc((void **)&d, sizeof h);
  cudaMemset(d, 0, sizeof h);
  k<<<1, 4>>>(d);
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  int good = 1;
  for (int i = 0; i < 4; i++) good &= h[i] == 117;
  printf("%s\n", good ? "switch ok" : "switch bad");
  cudaFree(d);
  return 0;
}
