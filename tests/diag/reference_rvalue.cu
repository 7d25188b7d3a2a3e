// expect: check 2 3:9: error: unsupported C++: rvalue references
__global__ void k(float *a) {
  float &&r = a[0] + 1.0f;
  a[1] = r;
}
