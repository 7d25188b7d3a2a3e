// expect: check 2 5:26: error: expected ')'
__global__ void k(int *a) {
  a[0] = 1;
}
__global__ void k2(int *a
