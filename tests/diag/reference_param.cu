// expect: check 2 4:12: error: argument 1 of 'inc' is a reference: it needs an lvalue
__device__ void inc(int &x) { x++; }
__global__ void k(int *a) {
  inc(a[0] + 1);
}
