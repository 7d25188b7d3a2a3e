// expect: check 2 3:11: error: cannot convert 'uint3' to 'int'
__global__ void k(int *a) {
  int i = threadIdx;
  a[i] = 1;
}
