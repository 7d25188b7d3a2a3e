// expect: check 2 3:20: error: __constant__ variables must be declared at file scope
__global__ void k(int *a) {
  __constant__ int c = 1;
  a[0] = c;
}
