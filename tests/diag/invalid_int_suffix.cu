// expect: check 2 3:10: error: invalid suffix 'abc' on integer constant
__global__ void k(int *a) {
  a[0] = 123abc;
}
