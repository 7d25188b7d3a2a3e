// expect: check 2 3:11: error: expected ';'
__global__ void k(int *a) {
  a[0] = 1
  a[1] = 2;
}
