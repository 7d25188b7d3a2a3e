// expect: check 2 5:5: error: multiple default labels in one switch
__global__ void k(int *a) {
  switch (a[0]) {
    default: a[1] = 1; break;
    default: a[1] = 2; break;
  }
}
