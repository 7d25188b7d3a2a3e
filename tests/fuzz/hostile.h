/* hostile.h: a structure-aware generator of the inputs that break front ends by their shape,
 * not their bytes: deep nesting (parentheses, braces, unary operators, casts, subscripts, calls,
 * if/for/while/do, ternaries, declarators, structs, #if) and macro bombs (exponential
 * arguments, long object-like and function-like chains, stringizing and pasting). Random byte
 * mutation almost never builds these: a thousand balanced parentheses are one draw here.
 *
 * Used by fuzz_front.c (libFuzzer custom mutator) and fuzz_cli.c (the command-line fuzzer).
 * Header-only, static functions: each fuzzer is one translation unit. */
#ifndef CARVE_FUZZ_HOSTILE_H
#define CARVE_FUZZ_HOSTILE_H
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t hostile_next(uint64_t *s) {
  /* xorshift64*: small, fast, and reproducible from the seed libFuzzer passes */
  uint64_t x = *s ? *s : 0x9e3779b97f4a7c15ull;
  x ^= x >> 12;
  x ^= x << 25;
  x ^= x >> 27;
  *s = x;
  return x * 2685821657736338717ull;
}
static size_t hostile_below(uint64_t *s, size_t n) { return n ? (size_t)(hostile_next(s) % n) : 0; }

typedef struct { char *s; size_t len, cap; } HBuf;
static void hb_put(HBuf *b, const char *s, size_t n) {
  if (b->len + n + 1 > b->cap) {
    size_t cap = b->cap ? b->cap : 256;
    while (b->len + n + 1 > cap) cap *= 2;
    char *p = realloc(b->s, cap);
    if (!p) abort();
    b->s = p;
    b->cap = cap;
  }
  memcpy(b->s + b->len, s, n);
  b->len += n;
  b->s[b->len] = 0;
}
static void hb_puts(HBuf *b, const char *s) { hb_put(b, s, strlen(s)); }
static void hb_rep(HBuf *b, const char *s, size_t n) { for (size_t i = 0; i < n; i++) hb_puts(b, s); }

/* nesting depths worth trying: around the usual guards (63 in C11 5.2.4.1, 200, 256), and far
 * past them (a C stack holds some thousands of recursive parser frames) */
static size_t hostile_depth(uint64_t *s, size_t budget) {
  static const size_t d[] = {8, 63, 64, 127, 128, 199, 200, 201, 255, 256, 257, 1000, 1024, 4096, 10000, 30000, 100000};
  size_t n = d[hostile_below(s, sizeof d / sizeof *d)];
  if (hostile_below(s, 4) == 0) n += hostile_below(s, 64);
  return n > budget ? budget : n;
}

/* one nested statement or expression, inside a kernel body: OPEN n times, MID, CLOSE n times */
static const struct { const char *pre, *open, *mid, *close, *post; } hostile_shapes[] = {
  {"x = ", "(", "1", ")", ";"},
  {"", "{", "", "}", ""},
  {"x = ", "-", "1", "", ";"},
  {"x = ", "!~", "x", "", ";"},
  {"x = ", "(int)", "x", "", ";"},
  {"x = ", "p[", "0", "]", ";"},
  {"x = ", "f(", "1", ")", ";"},
  {"", "if (x) ", "x++;", "", ""},
  {"", "for (int i = 0; i < 2; i++) ", "x++;", "", ""},
  {"", "while (x) ", "x--;", "", ""},
  {"", "do ", "x++;", " while (0);", ""},
  {"x = ", "x ? ", "1", " : 0", ";"},
  {"int ", "*", "q = 0", "", ";"},
  {"int ", "(", "y", ")", " = 0;"},
  {"x = ", "1 + ", "1", "", ";"},
  {"", "struct { ", "int v; ", "} m;", ""},
  {"x = ", "sizeof(", "x", ")", ";"},
  {"", "if (x) {", "x++;", "} else x--;", ""},
  {"", "switch (x) { case 1: ", "x++;", " }", ""},
  {"x = ", "x = ", "1", "", ";"},
  {"x = ", "++", "x", "", ";"},
  {"x = ", "x.", "y", "", ";"},
};

/* at most budget bytes (depth 1 at least) */
static void hostile_nest(HBuf *b, uint64_t *s, size_t budget) {
  size_t i = hostile_below(s, sizeof hostile_shapes / sizeof *hostile_shapes);
  size_t unit = strlen(hostile_shapes[i].open) + strlen(hostile_shapes[i].close);
  size_t n = hostile_depth(s, budget / unit);
  hb_puts(b, hostile_shapes[i].pre);
  hb_rep(b, hostile_shapes[i].open, n ? n : 1);
  hb_puts(b, hostile_shapes[i].mid);
  hb_rep(b, hostile_shapes[i].close, n ? n : 1);
  hb_puts(b, hostile_shapes[i].post);
}

/* preprocessor bombs: definitions and a use, at top level */
static void hostile_macro(HBuf *b, uint64_t *s, size_t budget) {
  char line[128];
  size_t k = 1 + hostile_below(s, 9);
  switch (hostile_below(s, 7)) {
  case 0: /* exponential: each level repeats its argument */
    hb_puts(b, "#define X(a) a a a a a a a a a a\nint v = ");
    hb_rep(b, "X(", k); hb_puts(b, "1"); hb_rep(b, ")", k); hb_puts(b, ";\n");
    break;
  case 1: { /* a chain of function-like macros, each calling the next */
    size_t n = hostile_depth(s, budget / 24);
    hb_puts(b, "#define F0(x) x\n");
    for (size_t i = 1; i <= n; i++) { snprintf(line, sizeof line, "#define F%zu(x) F%zu(x)\n", i, i - 1); hb_puts(b, line); }
    snprintf(line, sizeof line, "int v = F%zu(1);\n", n);
    hb_puts(b, line);
    break;
  }
  case 2: { /* a chain of object-like macros */
    size_t n = hostile_depth(s, budget / 20);
    hb_puts(b, "#define O0 1\n");
    for (size_t i = 1; i <= n; i++) { snprintf(line, sizeof line, "#define O%zu O%zu O%zu\n", i, i - 1, i - 1); hb_puts(b, line); }
    snprintf(line, sizeof line, "int v = O%zu;\n", n < 30 ? n : 30);
    hb_puts(b, line);
    break;
  }
  case 3: /* nested calls of one macro in its own argument */
    hb_puts(b, "#define F(x) x\nint v = ");
    k = hostile_depth(s, budget / 4);
    hb_rep(b, "F(", k); hb_puts(b, "1"); hb_rep(b, ")", k); hb_puts(b, ";\n");
    break;
  case 4: /* stringizing an exponential argument */
    hb_puts(b, "#define S(a) #a #a #a #a\n#define D(a) a a a a a a a a\nconst char *v = S(");
    hb_rep(b, "D(", k); hb_puts(b, "x"); hb_rep(b, ")", k); hb_puts(b, ");\n");
    break;
  case 5: /* pasting in a loop of expansions */
    hb_puts(b, "#define P(a, b) a ## b\n#define Q(a) P(a, a) P(a, a)\nint v = ");
    hb_rep(b, "Q(", k); hb_puts(b, "1"); hb_rep(b, ")", k); hb_puts(b, ";\n");
    break;
  default: /* conditional nesting, taken and skipped */
    k = hostile_depth(s, budget / 12);
    hb_puts(b, hostile_below(s, 2) ? "#if 0\n" : "#if 1\n");
    hb_rep(b, "#if 1\n", k); hb_rep(b, "#endif\n", k);
    hb_puts(b, "#endif\n");
    break;
  }
}

/* A hostile program of at most max bytes: a kernel whose body nests, or a macro bomb before
 * it. Returns its length (0: max too small). */
static size_t hostile_program(char *out, size_t max, uint64_t *s) {
  if (max < 128) return 0;
  HBuf b = {0};
  size_t budget = max - 100;
  if (hostile_below(s, 3) == 0) hostile_macro(&b, s, budget);
  hb_puts(&b, "__device__ int f(int a) { return a; }\n__global__ void k(int *p, int x) {\n");
  hostile_nest(&b, s, budget > b.len + 100 ? budget - b.len - 100 : 1);
  hb_puts(&b, "\n  p[0] = x;\n}\n");
  size_t len = b.len <= max ? b.len : 0;
  if (len) memcpy(out, b.s, len);
  free(b.s);
  return len;
}

/* Insert a hostile fragment (nesting inside a function body, or a bomb at a line start) into
 * data; returns the new length, or len when it does not fit. */
static size_t hostile_insert(char *data, size_t len, size_t max, uint64_t *s) {
  if (len >= max) return len;
  HBuf b = {0};
  size_t room = max - len;
  size_t at = hostile_below(s, len + 1);
  if (hostile_below(s, 3) == 0) {
    while (at > 0 && data[at - 1] != '\n') at--;   /* directives start a line */
    hostile_macro(&b, s, room);
  } else {
    hostile_nest(&b, s, room);
  }
  if (b.len > room) { free(b.s); return len; }
  memmove(data + at + b.len, data + at, len - at);
  memcpy(data + at, b.s, b.len);
  free(b.s);
  return len + (size_t)b.len;
}
#endif
