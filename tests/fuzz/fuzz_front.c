/* libFuzzer harness for the front end: any bytes go through the tokenizer, preprocessor,
 * parser, type checker and launch specs; what parses is printed, and the printed text must
 * parse again and print identically (the printer's stability promise).
 *
 * A custom mutator (LLVMFuzzerCustomMutator) mixes libFuzzer's byte mutations with
 * structure-aware ones from hostile.h: deep nesting and macro bombs, inserted into an input
 * or as a whole program, so the named limits (docs/limits.md) and the parser's depth guards
 * are reached. Built with lower limits (Makefile, FUZZ_LIMITS) to fit libFuzzer's time and
 * memory budget per input; the full values are tested by tests/diag. */
#include "../../src/front/front.h"
#include "hostile.h"
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size, unsigned int seed);
size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t max_size);

size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size, unsigned int seed) {
  uint64_t s = seed * 0x9e3779b97f4a7c15ull + 1;
  switch (hostile_below(&s, 8)) {
  case 0: {
    size_t n = hostile_program((char *)data, max_size, &s);
    return n ? n : LLVMFuzzerMutate(data, size, max_size);
  }
  case 1: return hostile_insert((char *)data, size, max_size, &s);
  default: return LLVMFuzzerMutate(data, size, max_size);
  }
}

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
    /* the printer indents each level: 9000 nested ifs print as 87 MB, past LIMIT_SOURCE_BYTES;
     * the round trip is promised for what fits the limits */
    bool limited = !q && strstr(diag_last_msg, "exceeds the limit of");
    if (limited) { buf_free(&b1); program_free(p); free(text); arena_free_all(); return 0; }
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
