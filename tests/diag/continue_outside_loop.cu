// expect: check 2 5:7: error: 'continue' statement not in loop statement
__global__ void k(int *a) {
  switch (a[0]) {
    case 1:
      continue;
  }
}
