// expect: check 2 3:8: error: variable 'v' has incomplete type 'void'
__global__ void k(int *a) {
  void v;
  a[0] = 1;
}
