// expect: check 2 3:13: error: size of array has non-integer type 'double'
__global__ void k(float *a) {
  float tmp[2.5];
  tmp[0] = 1.0f;
  a[0] = tmp[0];
}
