// expect: check 2 3:11: error: variable-length arrays are not
__global__ void k(int *a, int n) {
  int tmp[n];
  tmp[0] = 1;
  a[0] = tmp[0];
}
