// expect: check 2 4:20: error: function pointers are not supported
__device__ int twice(int x) { return 2 * x; }
__global__ void k(int *a) {
  int (*fp)(int) = twice;
  a[0] = fp(a[0]);
}
