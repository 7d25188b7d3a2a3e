// expect: check 2 4:11: error: member reference base type 'int' is not a struct
__global__ void k(int *a) {
  int x = a[0];
  a[1] = x.y;
}
