// expect: check 2 3:12: error: unsupported C++: 'new'
__global__ void k(int *a) {
  int *p = new int[4];
  a[0] = p[0];
}
