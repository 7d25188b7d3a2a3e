// expect: check 2 3:17: error: expression is not an integer constant
__global__ void k(int *a, int n) {
  if constexpr (n > 4) a[0] = 1;
}
