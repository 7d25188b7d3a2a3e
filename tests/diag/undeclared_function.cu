// expect: check 2 3:10: error: use of undeclared function 'bar'
__global__ void k(int *a) {
  a[0] = bar(1);
}
