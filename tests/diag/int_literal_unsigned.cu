// expect: check 0 5:10: warning: integer literal is too large to be represented in a signed integer type, interpreting as unsigned
// stdout: k(
// A decimal literal only unsigned long long holds is unsigned, with clang's warning.
__global__ void k(unsigned long long *a) {
  a[0] = 18446744073709551615;
}
