/* limits: the named limits of the tokenizer and preprocessor (Lua's checklimit): each has a
 * name, a number and a reason in docs/limits.md. Input past one is a located error
 * ("FILE:LINE:COL: error: WHAT exceeds the limit of N (NAME, docs/limits.md)"), never a
 * crash, an out-of-memory kill or a silent truncation. A build may lower one with -DNAME=N
 * (the fuzzer does, to reach them in its time and memory budget). */
#ifndef CARVE_FRONT_LIMITS_H
#define CARVE_FRONT_LIMITS_H
#include "front.h"

/* bytes of source text in one translation unit: the file and everything it includes */
#ifndef LIMIT_SOURCE_BYTES
#define LIMIT_SOURCE_BYTES (64LL << 20)
#endif
/* tokens one translation unit may make: scanned from its files plus every token the
 * preprocessor creates while expanding macros (a budget of memory and time) */
#ifndef LIMIT_TOKENS
#define LIMIT_TOKENS (1LL << 23)
#endif
/* macro expansions nested inside one another: through arguments (F(F(F(x))), recursion in
 * the preprocessor) and through rescanning (the macros a token came out of, its hideset) */
#ifndef LIMIT_MACRO_NESTING
#define LIMIT_MACRO_NESTING 256
#endif
/* #include files nested inside one another */
#ifndef LIMIT_INCLUDE_DEPTH
#define LIMIT_INCLUDE_DEPTH 200
#endif

typedef struct {
  const char *name;
  long long value;
  const char *unit, *what;
} Limit;
extern const Limit limit_source_bytes, limit_tokens, limit_macro_nesting, limit_include_depth;

/* raise the limit's error at t (NULL: at no location) when n > the limit */
void check_limit(const Token *t, long long n, const Limit *l);
/* the limit's error at the start of a source file (one too large to read) */
_Noreturn void limit_error_in_file(const char *path, const Limit *l);

/* Read and tokenize a source file, bounded: a directory is refused (NULL, errno EISDIR), a
 * regular file larger than max_bytes is refused before it is read, anything else (a pipe, a
 * device) is read up to max_bytes, and a NUL byte stops the read. Errors other than "cannot
 * open" are raised at `site` (the #include's file name; NULL: the file's start). NULL with
 * errno set when the file cannot be opened or read. tokenize_file(p) is
 * tokenize_file_bounded(p, NULL, LIMIT_SOURCE_BYTES). */
Token *tokenize_file_bounded(const char *path, const Token *site, long long max_bytes);
#endif
