// expect: check 2 4:10: error: too few arguments to function call, expected 2, have 1
__device__ int add(int x, int y) { return x + y; }
__global__ void k(int *a) {
  a[0] = add(1);
}
