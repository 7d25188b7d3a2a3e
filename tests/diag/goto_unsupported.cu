// expect: check 2 3:17: error: unsupported: 'goto'
__global__ void k(int *a) {
  if (a[0] > 0) goto done;
  a[0] = 1;
  done:
  a[1] = 2;
}
