// C++ default arguments (issue 29; shfl_scan's kernel takes `int *partial_sums = NULL`): a launch
// and a call that leave them out get the defaults.
#include <stdio.h>
__device__ int f(int x, int y = 10, int z = 2 * 50) { return x + y + z; }
__global__ void k(int *a, int n, int *partial = NULL) {
  int i = threadIdx.x;
  if (i < n) a[i] = f(i) + f(1, 2) + f(1, 2, 3) + (partial == NULL ? 1000 : 0);
}
int main() {
  int *a, h[4];
  cudaMalloc((void **)&a, sizeof h);
  k<<<1, 4>>>(a, 4);
  cudaMemcpy(h, a, sizeof h, cudaMemcpyDeviceToHost);
  int good = 1;
  for (int i = 0; i < 4; i++) good &= h[i] == i + 110 + 103 + 6 + 1000;
  printf("default arguments %s\n", good ? "ok" : "bad");
  return 0;
}
