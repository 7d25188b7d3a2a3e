// expect: check 2 2:26: error: unsupported: function pointers
__device__ int apply(int (*f)(int), int x) { return f(x); }
__global__ void k(int *a) {
  a[0] = apply(0, a[0]);
}
