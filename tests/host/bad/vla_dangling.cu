// A pointer to a local variable-length array used after its function returned
#include <stdio.h>
static int *leak(int n) { int v[n]; v[0] = 5; return v; }
int main(void) {
  int *p = leak(3);
  printf("%d\n", p[0]);
  return 0;
}
