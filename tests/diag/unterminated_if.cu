// expect: check 2 2:2: error: unterminated conditional directive
#if 1
__global__ void k(int *a) {
  a[0] = 1;
}
