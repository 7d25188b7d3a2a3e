// expect: check 2 3:10: error: unsupported C++: qualified names ('::')
__global__ void k(float *a) {
  a[0] = std::sqrt(a[1]);
}
