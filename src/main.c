#include "front/front.h"
#include <string.h>
int main(int argc, char **argv) {
  diag_out = stderr;
  if (argc < 3) return 2;
  Program *p = load_program(argv[2], NULL);
  if (!p) return 2;
  if (!strcmp(argv[1], "print")) { Buf b = {0}; print_program(&b, p); fputs(b.s ? b.s : "", stdout); }
  return diag_errors ? 2 : 0;
}
