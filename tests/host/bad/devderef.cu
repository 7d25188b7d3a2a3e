// Host code reading device memory without copying it back.
#include <stdio.h>
int main(void) {
  float *d;
  cudaMalloc(&d, 16 * sizeof(float));
  cudaMemset(d, 0, 16 * sizeof(float));
  printf("%f\n", d[3]);
  return 0;
}
