// expect: check 2 3:21: error: no member named 'w' in 'threadIdx'
__global__ void k(int *a) {
  int i = threadIdx.w;
  a[i] = 1;
}
