// expect: check 2 2:11: error: expected ')'
#if (1 + 2
#endif
__global__ void k(int *a) {
  a[0] = 1;
}
