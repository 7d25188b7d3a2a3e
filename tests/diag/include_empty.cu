// expect: check 0 5:22: warning: extra tokens at end of directive
// stdout: k(
// An empty file, and one of comments only, add no tokens (the splice of an empty file crashed).
#include "/dev/null"
#include "/dev/null" x
__global__ void k(int *a) { a[0] = 1; }
