// expect: check 2 3:13: error: invalid hex escape sequence
__global__ void k(char *a) {
  a[0] = '\xg';
}
