// expect: check 2 3:12: error: stray byte 0x01 in program
__global__ void k(int *a) {
  a[0] = 1  2;
}
