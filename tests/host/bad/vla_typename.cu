// A side effect in the count of a VLA type written in a cast: carve would evaluate it at every use
#include <stdlib.h>
int main(void) {
  int n = 4;
  float *buf = (float *)calloc(16, sizeof(float));
  float x = ((float (*)[n++])buf)[1][1];
  return (int)x;
}
