// expect: check 2 3:14: error: invalid operands to binary '+' ('int *' and 'int *')
__global__ void k(int *a, int *b) {
  int *c = a + b;
  c[0] = 1;
}
