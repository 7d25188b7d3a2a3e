// expect: check 2 2:2: error: #if with no expression
#if
#endif
__global__ void k(int *a) {
  a[0] = 1;
}
