// expect: check 2 3:10: error: invalid suffix 'q' on floating constant
__global__ void k(float *a) {
  a[0] = 1.5q;
}
