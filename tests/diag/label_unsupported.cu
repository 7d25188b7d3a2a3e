// expect: check 2 3:3: error: unsupported: labels and 'goto'
__global__ void k(int *a) {
  top:
  a[0] = 1;
}
