// expect: check 2 4:5: error: 'break' statement not in loop or switch statement
__global__ void k(int *a) {
  if (a[0] > 0)
    break;
  a[0] = 1;
}
