// expect: check 0 5:10: warning: magnitude of floating-point constant too small for type 'double'
// stdout: k(
// 1e-400 is zero as a double.
__global__ void k(double *a) {
  a[0] = 1e-400;
}
