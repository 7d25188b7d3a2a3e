// expect: check 2 2:2: error: #elif without #if
#elif 1
__global__ void k(int *a) {
  a[0] = 1;
}
