// expect: check 2 3:8: error: declaration with 'auto' needs an initializer
__global__ void k(int *a) {
  auto x;
  a[1] = x;
}
