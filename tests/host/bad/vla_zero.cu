// A variable-length array whose count is 0 (no arguments): undefined in C, a fault here
#include <stdio.h>
int main(int argc, char **argv) {
  int n = argc - 1;
  int v[n];
  v[0] = 1;
  return v[0];
}
