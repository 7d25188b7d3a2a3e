// expect: check 2 3:12: error: expression is not assignable
__global__ void k(int *a) {
  a[0] + 1 = 2;
}
