// expect: check 2 3:12: error: expected ';'
__global__ void k(int *a) {
  int x = 1
  a[0] = x;
}
