// expect: check 2 4:10: error: indirection requires pointer operand ('int' invalid)
__global__ void k(int *a) {
  int x = a[0];
  a[1] = *x;
}
