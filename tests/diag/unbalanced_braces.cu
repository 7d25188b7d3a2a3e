// expect: check 2 2:27: error: '{' is never closed
__global__ void k(int *a) {
  if (a[0] > 0) {
    a[0] = 1;
}
