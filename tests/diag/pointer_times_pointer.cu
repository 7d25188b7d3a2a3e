// expect: check 2 3:15: error: invalid operands to binary '*' ('float *' and 'float *')
__global__ void k(float *p, float *q, float *out) {
  out[0] = (p * q)[0];
}
