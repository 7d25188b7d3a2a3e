// expect: check 2 3:3: error: '__syncthreads' takes 0 arguments, 1 given
__global__ void k(int *a) {
  __syncthreads(1);
  a[0] = 1;
}
