// expect: check 2 5:5: error: duplicate case value 2
__global__ void k(int *a) {
  switch (a[0]) {
    case 1 + 1: a[1] = 1; break;
    case 2: a[1] = 2; break;
  }
}
