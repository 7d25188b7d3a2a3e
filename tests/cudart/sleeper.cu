// a program still running when carve is told to stop (SIGTERM): carve passes it on, then cleans up
#include <cstdio>
#include <unistd.h>
__global__ void k(int *a) { a[threadIdx.x] = threadIdx.x; }
int main() {
  int *d;
  cudaMalloc(&d, 32 * sizeof(int));
  k<<<1, 32>>>(d);
  printf("ready\n");
  fflush(stdout);
  sleep(60);
  return 0;
}
