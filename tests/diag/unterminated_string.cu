// expect: check 2 3:19: error: unterminated string literal
__global__ void k(int *a) {
  const char *s = "abc;
  a[0] = 1;
}
