// expect: check 2 5:11: error: expected ';'
// stderr: 5 |   int x = __LINE__
// __LINE__'s number is written by the preprocessor: the caret goes to the use (it printed junk).
__global__ void k(int *a) {
  int x = __LINE__
  a[0] = x;
}
