// expect: check 2 3:10: error: use of undeclared identifier 'foo'
__global__ void k(int *a) {
  a[0] = foo + 1;
}
