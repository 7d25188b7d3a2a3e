// expect: check 2 4:7: error: redefinition of 'x'
__global__ void k(int *a) {
  int x = 1;
  int x = 2;
  a[0] = x;
}
