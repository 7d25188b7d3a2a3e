// expect: check 2 3:3: error: 'case' label not within a switch statement
__global__ void k(int *a) {
  case 1:
  a[0] = 1;
}
