// expect: check 0 5:10: warning: magnitude of floating-point constant too large for type 'double'; maximum is 1.7976931348623157e+308
// stdout: k(
// 1e400 is infinity as a double: said, as clang says it.
__global__ void k(double *a) {
  a[0] = 1e400;
}
