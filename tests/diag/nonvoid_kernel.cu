// expect: check 2 2:16: error: __global__ function 'k' must have a void return type
__global__ int k(int *a) {
  a[0] = 1;
  return 0;
}
