// expect: check 2 3:10: error: '__shfl_down' was removed in CUDA 9
__global__ void k(int *a) {
  a[0] = __shfl_down(a[0], 1);
}
