// expect: check 2 3:11: error: invalid digit '8' in octal constant
__global__ void k(int *a) {
  int x = 08;
  a[0] = x;
}
