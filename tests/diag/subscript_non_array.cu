// expect: check 2 4:10: error: subscripted value is not an array or pointer ('int')
__global__ void k(int *a) {
  int x = a[0];
  a[1] = x[2];
}
