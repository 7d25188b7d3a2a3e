// expect: check 2 3:11: error: array size must be positive (is -4)
__global__ void k(int *a) {
  int tmp[-4];
  a[0] = 1;
}
