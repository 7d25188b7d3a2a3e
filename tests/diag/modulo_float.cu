// expect: check 2 3:15: error: invalid operands to binary '%' ('float' and 'float')
__global__ void k(float *x, float *y) {
  y[0] = x[0] % y[1];
}
