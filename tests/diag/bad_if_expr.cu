// expect: check 2 2:8: error: expected a constant expression
#if 1 +
#endif
__global__ void k(int *a) {
  a[0] = 1;
}
