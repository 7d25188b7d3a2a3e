#include <stdlib.h>
int main(void) {
  int *p = (int *)malloc(16);
  free(p);
  free(p);
  return 0;
}
