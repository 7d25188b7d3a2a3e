// expect: check 2 3:11: error: unsupported C++: lambdas
__global__ void k(int *a) {
  int y = [](int x) { return x + 1; }(a[0]);
  a[0] = y;
}
