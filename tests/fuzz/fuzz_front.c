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
int LLVMFuzzerInitialize(int *argc, char ***argv);
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

/* FUZZ_PP_ONLY=1: the tokenizer and preprocessor alone, with an oracle of their own (every place
 * a diagnostic could print lies in its file's text), and no parser to stop at first */
static bool pp_only;
int LLVMFuzzerInitialize(int *argc, char ***argv) {
  pp_only = getenv("FUZZ_PP_ONLY") != NULL;
  return 0;
}

static bool in_text(const SrcFile *f, const char *loc) {
  uintptr_t b = (uintptr_t)f->contents, p = (uintptr_t)loc;
  return p >= b && p <= b + strlen(f->contents);
}

/* the place tok_loc gives, and every place a macro note would print, are in their file */
static void check_places(const Token *t) {
  SrcLoc l = tok_loc(t);
  if (l.loc && !in_text(l.file, l.loc)) {
    fprintf(stderr, "token '%.*s' has a place outside %s's text\n", t->len, t->loc, l.file->name);
    abort();
  }
  for (const Token *u = t; u->origin; u = u->origin)
    if (u->macro && !in_text(u->file, u->loc)) {
      fprintf(stderr, "macro note for '%.*s' outside %s's text\n", t->len, t->loc, u->file->name);
      abort();
    }
}

typedef struct { const char *text; Token *tok; } PPCall;
static void pp_call(void *ud) {
  PPCall *c = ud;
  PPOptions opt = {.no_includes = true};
  c->tok = preprocess(tokenize_string("fuzz.cu", c->text), &opt);
}

static void preprocess_only(const char *text) {
  Arena *a = arena_new();
  Arena *prev = arena_enter(a);
  PPCall c = {text, NULL};
  if (carve_pcall(pp_call, &c))
    for (Token *t = c.tok; t->kind != TK_EOF; t = t->next) check_places(t);
  arena_enter(prev);
  arena_delete(a);
  pp_state_restore(NULL);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static FILE *devnull;
  if (!devnull) devnull = fopen("/dev/null", "w");
  diag_out = devnull;
  char *text = malloc(size + 1);
  memcpy(text, data, size);
  text[size] = 0;
  if (strlen(text) != size) { free(text); return 0; }   /* NUL bytes are rejected earlier by tokenize_file */
  if (pp_only) { diag_reset(); preprocess_only(text); free(text); arena_free_all(); return 0; }
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
