// expect: check 2 3:10: error: unterminated character constant
__global__ void k(char *a) {
  a[0] = 'x;
}
