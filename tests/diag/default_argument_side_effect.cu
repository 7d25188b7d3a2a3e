// expect: check 2 3:33: error: unsupported C++: a default argument with side effects
__device__ int counter;
__device__ int f(int x, int y = ++counter) { return x + y; }
__global__ void k(int *a) {
  a[0] = f(a[0]);
}
