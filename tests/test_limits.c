/* Hostile input to the tokenizer and preprocessor: the named limits (src/front/limits.h,
 * docs/limits.md), memory proportional to the tokens kept, bounded reads, the state a failed
 * load leaves, macro semantics kept by the single-copy expander, and literal ranges. */
#include "../src/front/limits.h"
#include "test.h"
#include <errno.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static char diag_text[65536];

static void capture(void) {
  memset(diag_text, 0, sizeof diag_text);
  diag_out = fmemopen(diag_text, sizeof diag_text - 1, "w");
  diag_reset();
}
static void release(void) {
  fclose(diag_out);
  diag_out = stderr;
}

static Program *load_text(const char *src) {
  capture();
  Program *p = load_program_text("t.cu", src, NULL);
  release();
  return p;
}

/* preprocess src in an arena of its own: the tokens as text (one space apart, a line per
 * source line; adjacent strings joined, as preprocess leaves them), the arena's
 * bytes, and the token count; NULL on error (diag_text says why) */
typedef struct { const char *src; Token *tok; } PPCall;
static void pp_call(void *ud) {
  PPCall *c = ud;
  c->tok = preprocess(tokenize_string("t.cu", c->src), NULL);
}
static char *pp_text(const char *src, size_t *bytes, long *ntok) {
  Arena *a = arena_new();
  Arena *prev = arena_enter(a);
  PPCall c = {src, NULL};
  capture();
  bool ok = carve_pcall(pp_call, &c);
  release();
  char *out = NULL;
  long n = 0;
  if (ok) {
    Buf b = {0};
    for (Token *t = c.tok; t->kind != TK_EOF; t = t->next, n++) {
      if (t->at_bol && b.len) buf_putc(&b, '\n');
      else if (b.len) buf_putc(&b, ' ');
      /* adjacent string literals are one token after preprocessing: its text is in str */
      if (t->kind == TK_STR) buf_printf(&b, "\"%.*s\"", (int)t->ival, t->str);
      else buf_printf(&b, "%.*s", t->len, t->loc);
    }
    out = strdup(b.s ? b.s : "");
    buf_free(&b);
  }
  if (bytes) *bytes = arena_bytes(a);
  if (ntok) *ntok = n;
  arena_enter(prev);
  arena_delete(a);
  return out;
}

/* the text with every space removed, to compare expansions whatever their spacing */
static char *squeeze(const char *s) {
  char *r = strdup(s), *w = r;
  for (; *s; s++)
    if (*s != ' ' && *s != '\n') *w++ = *s;
  *w = 0;
  return r;
}

/* C11 6.10.3.5 EXAMPLE 3 and EXAMPLE 4: the standard's own test of rescanning, hidesets, # and ## */
static void test_standard_examples(void) {
  const char *src =
    "#define x 3\n#define f(a) f(x * (a))\n#undef x\n#define x 2\n#define g f\n#define z z[0]\n"
    "#define h g(~\n#define m(a) a(w)\n#define w 0,1\n#define t(a) a\n#define p() int\n#define q(x) x\n"
    "#define r(x,y) x ## y\n#define str(x) # x\n"
    "f(y+1) + f(f(z)) % t(t(g)(0) + t)(1);\n"
    "g(x+(3,4)-w) | h 5) & m\n(f)^m(m);\n"
    "p() i[q()] = { q(1), r(2,3), r(4,), r(,5), r(,) };\n"
    "char c[2][6] = { str(hello), str() };\n";
  char *out = pp_text(src, NULL, NULL);
  CHECK(out != NULL, "C11 6.10.3.5 example 3 preprocesses:\n%s", diag_text);
  if (!out) return;
  char *got = squeeze(out);
  const char *want =
    "f(2*(y+1))+f(2*(f(2*(z[0]))))%f(2*(0))+t(1);"
    "f(2*(2+(3,4)-0,1))|f(2*(~5))&f(2*(0,1))^m(0,1);"
    "inti[]={1,23,4,5,};"
    "charc[2][6]={\"hello\",\"\"};";
  CHECK(!strcmp(got, want), "C11 6.10.3.5 example 3:\n got  %s\n want %s", got, want);
  free(got);
  free(out);

  const char *src4 =
    "#define str(s) # s\n#define xstr(s) str(s)\n"
    "#define debug(s, t) printf(\"x\" # s \"= %d, x\" # t \"= %s\", x ## s, x ## t)\n"
    "#define INCFILE(n) vers ## n\n#define glue(a, b) a ## b\n#define xglue(a, b) glue(a, b)\n"
    "#define HIGHLOW \"hello\"\n#define LOW LOW \", world\"\n"
    "debug(1, 2);\nglue(HIGH, LOW);\nxglue(HIGH, LOW)\n";
  out = pp_text(src4, NULL, NULL);
  CHECK(out != NULL, "C11 6.10.3.5 example 4 preprocesses:\n%s", diag_text);
  if (!out) return;
  got = squeeze(out);
  want = "printf(\"x1=%d,x2=%s\",x1,x2);\"hello\";\"hello,world\"";
  CHECK(!strcmp(got, want), "C11 6.10.3.5 example 4:\n got  %s\n want %s", got, want);
  free(got);
  free(out);
}

/* an argument is expanded once, whatever the number of its uses (GCC and clang agree) */
static void test_argument_expanded_once(void) {
  char *out = pp_text("#define TWICE(a) a a\nTWICE(__COUNTER__) __COUNTER__\n", NULL, NULL);
  CHECK(out && !strcmp(out, "0 0 1"), "__COUNTER__ in an argument used twice: '%s'", out ? out : diag_text);
  free(out);
}

/* parameters are found by spelling in a table: the first of equal names, the variadic one, and
 * a long list */
static void test_parameters(void) {
  char *out = pp_text("#define F(a, b, ...) b a __VA_ARGS__ #b\nF(1, 2, 3, 4)\n", NULL, NULL);
  CHECK(out && !strcmp(out, "2 1 3 , 4 \"2\""), "named and variadic parameters: '%s'", out ? out : diag_text);
  free(out);
  Buf b = {0};
  buf_puts(&b, "#define G(p0");
  for (int i = 1; i < 3000; i++) buf_printf(&b, ", p%d", i);
  buf_puts(&b, ") p2999 p0 p1500\nG(x");
  for (int i = 1; i < 3000; i++) buf_printf(&b, ", %d", i);
  buf_puts(&b, ")\n");
  out = pp_text(b.s, NULL, NULL);
  CHECK(out && !strcmp(out, "2999 x 1500"), "3000 parameters: '%s'", out ? out : diag_text);
  free(out);
  buf_free(&b);
}

/* The bomb of issue #11: ten copies per level. Memory follows the tokens kept: a token is
 * 144 bytes in the arena (sizeof(Token) rounded to 16); the expansion may use at most twice
 * that per token it keeps (it took 3.7 KB). */
static void test_bomb_memory(void) {
  const char *src = "#define X(a) a a a a a a a a a a\nX(X(X(X(X(1)))))\n";
  size_t bytes;
  long n;
  char *out = pp_text(src, &bytes, &n);
  CHECK(out && n == 100000, "five levels make 10^5 tokens (%ld)", n);
  double per = (double)bytes / (double)(n ? n : 1);
  CHECK(per < 2 * 144, "%.0f bytes of arena per token kept (at most %d)", per, 2 * 144);
  free(out);
}

static void test_token_limit(void) {
  const char *src = "#define X(a) a a a a a a a a a a\nint v = X(X(X(X(X(X(X(1)))))));\n";
  size_t bytes;
  char *out = pp_text(src, &bytes, NULL);
  CHECK(!out && strstr(diag_text, "t.cu:2:9: error: the number of tokens made for the translation unit exceeds the limit of 8388608 tokens (LIMIT_TOKENS, see docs/limits.md)"),
        "seven levels stop at the token limit:\n%s", diag_text);
  CHECK(bytes < (size_t)LIMIT_TOKENS * 160, "memory at the limit: %zu bytes", bytes);
  free(out);
}

/* a load stopped by a limit leaves nothing behind: the next load in the process works (the
 * budget was once left spent, and every later load failed on the prelude) */
static void test_state_after_limit(void) {
  Program *p = load_text("#define X(a) a a a a a a a a a a\nint v = X(X(X(X(X(X(X(1)))))));\n");
  CHECK(!p && strstr(diag_text, "LIMIT_TOKENS"), "the bomb fails:\n%s", diag_text);
  p = load_text("#define F(x) x\nint v = " "F(F(F(F(F(F(F(F(F(F(F(F(F(F(F(F(F(F(F(F(F(F(F(F(F(F(F(F(F(F(F(F(F(F(F(F(F(F(F(F("
                "F(F(F(F(F(F(F(F(F(F(F(F(F(F(F(F(F(F(F(F(F(F(F(F(F(F(F(F(F(F(F(F(F(F(F(F(F(F(F(F(F(F(F(F(F(F(F(F(F(F("
                "F(F(F(F(F(F(F(F(F(F(F(F(F(F(F(F(F(F(F(F(F(F(F(F(F(F(F(F(F(F(F(F(F(F(F(F(F(F(F(F(F(F(F(F(F(F(F(F(F(F("
                "F(F(F(F(F(F(F(F(F(F(F(F(F(F(F(F(F(F(F(F(F(F(F(F(F(F(F(F(F(F(F(F(F(F(F(F(F(F(F(F(F(F(F(F(F(F(F(F(F(F("
                "F(F(F(F(F(F(F(F(F(F(F(F(F(F(F(F(F(F(F(F(F(F(F(F(F(F(F(F(F(F(F(F(F(F(F(F(F(F(F(F(F(F(F(F(F(F(F(F(F(F("
                "F(F(F(F(F(F(F(F(F(F(F(F(F(F(F(F(F(F(F(F(F(F(F(F(F(F(F(F(F(F(F(F(F(F(F(F(F(F(F(F(F(F(F(F(F(F(F(F(F(F(1"
                "))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))"
                "))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))"
                "))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))"
                ");\n");
  CHECK(!p && strstr(diag_text, "macro expansion nesting exceeds the limit of 256 levels (LIMIT_MACRO_NESTING"),
        "300 nested calls fail:\n%s", diag_text);
  p = load_text("__global__ void k(int *a) { a[0] = 1; }\n");
  CHECK(p && diag_errors == 0, "a kernel loads after both:\n%s", diag_text);
  program_free(p);
}

static void test_nesting_limit(void) {
  /* 256 levels of hideset are allowed, 257 are not */
  Buf b = {0};
  buf_puts(&b, "#define O0 1\n");
  for (int i = 1; i < 256; i++) buf_printf(&b, "#define O%d O%d\n", i, i - 1);
  buf_puts(&b, "O255\n");
  char *out = pp_text(b.s, NULL, NULL);
  CHECK(out && !strcmp(out, "1"), "a chain of 256 object-like macros expands: '%s'", out ? out : diag_text);
  free(out);
  buf_printf(&b, "#define O256 O255\nO256\n");
  out = pp_text(b.s, NULL, NULL);
  CHECK(!out && strstr(diag_text, "LIMIT_MACRO_NESTING"), "a chain of 257 stops:\n%s", diag_text);
  free(out);
  buf_free(&b);
}

/* ---- reads ---- */
typedef struct { const char *path; long long max; Token *tok; int err; } ReadCall;
static void read_call(void *ud) {
  ReadCall *c = ud;
  c->tok = tokenize_file_bounded(c->path, NULL, c->max);
  c->err = errno;
}
static bool read_src(const char *path, long long max, ReadCall *c) {
  *c = (ReadCall){path, max, NULL, 0};
  capture();
  bool ok = carve_pcall(read_call, c);
  release();
  return ok;
}

static void test_reads(void) {
  ReadCall c;
  CHECK(read_src("tests", LIMIT_SOURCE_BYTES, &c) && !c.tok && c.err == EISDIR, "a directory: EISDIR (errno %d)", c.err);
  CHECK(!read_src("/dev/zero", LIMIT_SOURCE_BYTES, &c) && strstr(diag_text, "/dev/zero:1:1: error: file contains NUL bytes"),
        "/dev/zero: %s", diag_text);
  CHECK(read_src("/dev/null", LIMIT_SOURCE_BYTES, &c) && c.tok && c.tok->kind == TK_EOF, "/dev/null is an empty file");
  CHECK(read_src("tests/no-such-file.cu", LIMIT_SOURCE_BYTES, &c) && !c.tok && c.err == ENOENT, "a missing file: ENOENT");
  /* a regular file over the budget is refused from its size; the message names the limit */
  CHECK(!read_src("examples/mm.cu", 100, &c) && strstr(diag_text, "examples/mm.cu:1:1: error: the source text of the translation unit exceeds the limit of 67108864 bytes (LIMIT_SOURCE_BYTES"),
        "a file over the budget: %s", diag_text);
  /* a pipe is read up to the budget and no further */
  char dir[] = "/tmp/carve-limits-XXXXXX";
  if (!mkdtemp(dir)) { CHECK(0, "mkdtemp"); return; }
  char *fifo = fmt("%s/pipe.cu", dir);
  CHECK(mkfifo(fifo, 0600) == 0, "mkfifo");
  pid_t pid = fork();
  if (pid == 0) {
    FILE *f = fopen(fifo, "w");
    for (int i = 0; f && i < 1000; i++) fputs("__device__ int x;\n", f);
    _exit(0);
  }
  CHECK(!read_src(fifo, 4096, &c) && strstr(diag_text, "LIMIT_SOURCE_BYTES"), "a pipe over the budget: %s", diag_text);
  int st;
  waitpid(pid, &st, 0);
  unlink(fifo);
  rmdir(dir);
}

static void test_literals(void) {
  Program *p = load_text("__global__ void k(long *a) { a[0] = 99999999999999999999; }\n");
  CHECK(!p && strstr(diag_text, "t.cu:1:37: error: integer literal is too large to be represented in any integer type"),
        "a literal no type holds:\n%s", diag_text);
  p = load_text("__global__ void k(long *a) { a[0] = 0x1ffffffffffffffff; }\n");
  CHECK(!p && strstr(diag_text, "integer literal is too large"), "a hexadecimal literal no type holds:\n%s", diag_text);
  p = load_text("__global__ void k(long *a) { a[0] = 18446744073709551615u + 9223372036854775807 + 0xffffffffffffffff; }\n");
  CHECK(p && diag_errors == 0 && diag_warnings == 0, "the largest literals of each kind are quiet:\n%s", diag_text);
  program_free(p);
  p = load_text("__global__ void k(double *a) { a[0] = 1e400; a[1] = 1e-400; a[2] = 1e308; a[3] = 4.9e-324; }\n");
  CHECK(p && diag_warnings == 2 && strstr(diag_text, "1:39: warning: magnitude of floating-point constant too large for type 'double'") &&
        strstr(diag_text, "1:53: warning: magnitude of floating-point constant too small for type 'double'"),
        "double range warnings (%d):\n%s", diag_warnings, diag_text);
  program_free(p);
  p = load_text("__global__ void k(float *a) { a[0] = 1e39f; a[1] = 1e-50f; a[2] = 3.4e38f; a[3] = 1.5e-45f; }\n");
  CHECK(p && diag_warnings == 2 && strstr(diag_text, "too large for type 'float'") && strstr(diag_text, "too small for type 'float'"),
        "float range warnings (%d):\n%s", diag_warnings, diag_text);
  program_free(p);
}

int main(void) {
  test_standard_examples();
  test_argument_expanded_once();
  test_parameters();
  test_bomb_memory();
  test_token_limit();
  test_state_after_limit();
  test_nesting_limit();
  test_reads();
  test_literals();
  return TEST_SUMMARY("limits");
}
