// expect: check 2 2:9: error: expected ')' in preprocessor expression
#if (1 + 2
#endif
__global__ void k(int *a) {
  a[0] = 1;
}
