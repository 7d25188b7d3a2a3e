// expect: check 2 3:11: error: 'threadIdx' must be used with a component
__global__ void k(int *a) {
  int i = threadIdx;
  a[i] = 1;
}
