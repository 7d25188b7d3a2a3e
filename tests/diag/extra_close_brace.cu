// expect: check 2 5:1: error: extraneous closing brace ('}')
__global__ void k(int *a) {
  a[0] = 1;
}
}
