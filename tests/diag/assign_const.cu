// expect: check 2 4:5: error: const-qualified type 'const int'
__global__ void k(int *a) {
  const int c = 3;
  c = a[0];
  a[1] = c;
}
