// expect: check 0 5:10: warning: magnitude of floating-point constant too large for type 'float'; maximum is 3.4028234663852886e+38
// stdout: k(
// 1e39f is infinity as a float.
__global__ void k(float *a) {
  a[0] = 1e39f;
}
