// A function with a local variable-length array called more times than there are buffer
// numbers (2^20): each call's array is freed at its return, and freed numbers are given again
#include <stdio.h>
static int one(int n) {
  int v[n];
  v[n - 1] = n;
  return v[n - 1];
}
int main(void) {
  long s = 0;
  for (int i = 0; i < 1050000; i++) s += one(1 + (i & 1));
  printf("%ld\n", s);
  return 0;
}
