// expect: check 2 5:2: error: #endif without #if
__global__ void k(int *a) {
  a[0] = 1;
}
#endif
