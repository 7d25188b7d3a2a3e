// expect: check 2 3:15: error: cannot assign to a builtin variable
__global__ void k(int *a) {
  threadIdx.x = 0;
  a[0] = 1;
}
