// expect: check 2 3:3: error: unsupported C++: 'auto' type deduction
__global__ void k(int *a) {
  auto x = a[0] + 1;
  a[1] = x;
}
