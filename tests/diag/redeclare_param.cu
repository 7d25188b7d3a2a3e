// expect: check 2 3:7: error: redefinition of 'a'
__global__ void k(int *a) {
  int a = 1;
}
