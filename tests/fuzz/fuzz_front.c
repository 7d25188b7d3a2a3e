/* libFuzzer harness for the front end: any bytes go through the tokenizer, preprocessor,
 * parser, type checker and launch specs; what parses is printed, and the printed text must
 * parse again and print identically (the printer's stability promise). */
#include "../../src/front/front.h"
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static FILE *devnull;
  if (!devnull) devnull = fopen("/dev/null", "w");
  diag_out = devnull;
  char *text = malloc(size + 1);
  memcpy(text, data, size);
  text[size] = 0;
  if (strlen(text) != size) { free(text); return 0; }   /* NUL bytes are rejected earlier by tokenize_file */
  PPOptions opt = {.no_includes = true};
  diag_reset();
  Program *p = load_program_text("fuzz.cu", text, &opt);
  if (p && diag_errors == 0) {
    Buf b1 = {0}, b2 = {0};
    print_program(&b1, p);
    diag_reset();
    Program *q = load_program_text("printed.cu", b1.s ? b1.s : "", &opt);
    if (!q || diag_errors) {
      fprintf(stderr, "printed program does not parse:\n%s\n", b1.s ? b1.s : "");
      abort();
    }
    print_program(&b2, q);
    if (strcmp(b1.s ? b1.s : "", b2.s ? b2.s : "")) {
      fprintf(stderr, "printing is not stable:\n--- first\n%s\n--- second\n%s\n", b1.s ? b1.s : "", b2.s ? b2.s : "");
      abort();
    }
    buf_free(&b1);
    buf_free(&b2);
    program_free(q);
  }
  program_free(p);
  free(text);
  arena_free_all();
  return 0;
}
