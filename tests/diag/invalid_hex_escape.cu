// expect: check 2 3:12: error: \x used with no following hex digits
__global__ void k(char *a) {
  a[0] = '\xg';
}
