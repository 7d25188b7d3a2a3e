// The program's exit status comes through: exit() from a helper, after output.
#include <stdio.h>
#include <stdlib.h>
static void fail(const char *why) {
  fprintf(stderr, "fatal: %s\n", why);
  exit(3);
}
int main(int argc, char **argv) {
  printf("argc=%d argv[1]=%s\n", argc, argc > 1 ? argv[1] : "(none)");
  if (argc > 2) fail("too many arguments");
  return argc == 2 ? 4 : 0;
}
