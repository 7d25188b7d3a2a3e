// expect: check 2 4:10: error: void function 'k' should not return a value
__global__ void k(int *a) {
  a[0] = 1;
  return a[0];
}
