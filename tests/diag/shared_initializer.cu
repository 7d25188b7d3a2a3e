// expect: check 2 3:23: error: initializer is not allowed on a __shared__ variable
__global__ void k(int *a) {
  __shared__ int s[1] = {0};
  a[0] = s[0];
}
