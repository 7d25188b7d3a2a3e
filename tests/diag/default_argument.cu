// expect: check 2 2:33: error: missing default argument on parameter 'y'
__device__ int f(int x = 1, int y) { return x + y; }
__global__ void k(int *a) {
  a[0] = f(a[0], 2);
}
