// A string argument that is not a pointer to memory: the fault is located at the call.
#include <stdio.h>
int main(void) {
  const char *names[2] = {"a", 0};
  printf("%s and %s\n", names[0], names[0] + 4096);
  return 0;
}
