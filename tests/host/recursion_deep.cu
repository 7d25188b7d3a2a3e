// Host recursion as deep as a C program's 8 MiB stack allows (tens of thousands of calls):
// nvcc's build runs it, and so must carve (issue 26, item 9: the limit was 64).
#include <cstdio>
#include <cstdlib>
__global__ void k(int *a, int v) { a[threadIdx.x] = v + threadIdx.x; }
int depth(int n) { if (n == 0) return 0; return 1 + depth(n - 1); }
int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 50000;
  int *d;
  cudaMalloc(&d, 32 * sizeof(int));
  int r = depth(n);
  k<<<1, 32>>>(d, r);
  int h[32];
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  printf("depth %d, h[31] = %d\n", r, h[31]);
  return 0;
}
