// expect: check 2 5:2: error: #else without #if
__global__ void k(int *a) {
  a[0] = 1;
}
#else
