// expect: check 2 4:10: error: called object 'x' is not a function
__global__ void k(int *a) {
  int x = 1;
  a[0] = x(2);
}
