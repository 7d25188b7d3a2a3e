// expect: check 2 4:2: error: #elif after #else
#if 0
#else
#elif 1
#endif
__global__ void k(int *a) {
  a[0] = 1;
}
