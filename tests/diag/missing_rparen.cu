// expect: check 2 4:13: error: expected ')'
__global__ void k(int *a, int n) {
  int i = threadIdx.x;
  if (i < n {
    a[i] = 1;
  }
}
