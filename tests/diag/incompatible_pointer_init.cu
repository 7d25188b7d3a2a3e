// expect: check 2 3:14: error: cannot convert pointer 'int *' to 'float *'
__global__ void k(int *a) {
  float *p = a;
  p[0] = 1.0f;
}
