// expect: check 2 2:10: error: 'no_such_header.h' file not found
#include "no_such_header.h"
__global__ void k(int *a) {
  a[0] = 1;
}
