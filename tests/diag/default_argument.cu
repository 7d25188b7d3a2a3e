// expect: check 2 2:31: error: unsupported C++: default arguments
__device__ int f(int x, int y = 1) { return x + y; }
__global__ void k(int *a) {
  a[0] = f(a[0]);
}
