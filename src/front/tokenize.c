/* tokenize: bytes -> tokens with file:line:col. Numbers stay pp-numbers until the preprocessor
 * is done (convert_pp_tokens), as the C standard says. */
#include "limits.h"
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

SrcLoc tok_loc(const Token *t) {
  while (t->origin) t = t->origin;
  return (SrcLoc){t->file, t->line, t->col, t->loc};
}

static void macro_notes(const Token *t) {
  for (const Token *u = t; u->origin; u = u->origin)
    if (u->macro) {
      /* point at the spelling inside the macro body */
      diag_at(DIAG_NOTE, (SrcLoc){u->file, u->line, u->col, u->loc}, "expanded from macro '%s'",
              u->macro);
      break;
    }
}

void error_tok(const Token *t, const char *f, ...) {
  va_list ap;
  va_start(ap, f);
  vdiag_at(DIAG_ERROR, tok_loc(t), f, ap);
  va_end(ap);
  macro_notes(t);
  carve_throw();
}

void warn_tok(const Token *t, const char *f, ...) {
  va_list ap;
  va_start(ap, f);
  vdiag_at(DIAG_WARNING, tok_loc(t), f, ap);
  va_end(ap);
  macro_notes(t);
}

void note_tok(const Token *t, const char *f, ...) {
  va_list ap;
  va_start(ap, f);
  vdiag_at(DIAG_NOTE, tok_loc(t), f, ap);
  va_end(ap);
}

void check_limit(const Token *t, long long n, const Limit *l) {
  if (n <= l->value) return;
  if (!t) {
    diag_at(DIAG_ERROR, (SrcLoc){0}, "%s exceeds the limit of %lld %s (%s, see docs/limits.md)",
            l->what, l->value, l->unit, l->name);
    carve_throw();
  }
  error_tok(t, "%s exceeds the limit of %lld %s (%s, see docs/limits.md)", l->what, l->value,
            l->unit, l->name);
}

static SrcFile *new_file(const char *name, char *contents);

void limit_error_in_file(const char *path, const Limit *l) {
  SrcFile *f = new_file(path, "");
  diag_at(DIAG_ERROR, (SrcLoc){f, 1, 1, NULL},
          "%s exceeds the limit of %lld %s (%s, see docs/limits.md)", l->what, l->value, l->unit,
          l->name);
  carve_throw();
}

const Limit limit_source_bytes = {"LIMIT_SOURCE_BYTES", LIMIT_SOURCE_BYTES, "bytes",
                                  "the source text of the translation unit"};
const Limit limit_tokens = {"LIMIT_TOKENS", LIMIT_TOKENS, "tokens",
                            "the number of tokens made for the translation unit"};
const Limit limit_macro_nesting = {"LIMIT_MACRO_NESTING", LIMIT_MACRO_NESTING, "levels",
                                   "macro expansion nesting"};
const Limit limit_include_depth = {"LIMIT_INCLUDE_DEPTH", LIMIT_INCLUDE_DEPTH, "levels",
                                   "#include nesting"};

bool tok_equal(const Token *t, const char *s) {
  /* the first byte settles almost every comparison without a strlen */
  if (t->len == 0) return s[0] == 0;
  if (t->loc[0] != s[0]) return false;
  return strncmp(t->loc, s, (size_t)t->len) == 0 && s[t->len] == 0;
}

char *tok_text(const Token *t) { return arena_strndup(t->loc, (size_t)t->len); }

/* ---- the scanner ---- */
typedef struct {
  SrcFile *file;
  char *p;
  int line;
  char *line_start;
  bool at_bol, has_space;
  long long ntok;
} Scanner;

static Token *new_token(Scanner *s, TokenKind kind, char *start, char *end) {
  Token *t = arena_alloc(sizeof(Token));
  t->kind = kind;
  t->loc = start;
  t->len = (int)(end - start);
  t->file = s->file;
  t->line = s->line;
  t->col = (int)(start - s->line_start) + 1;
  t->at_bol = s->at_bol;
  t->has_space = s->has_space;
  s->at_bol = s->has_space = false;
  /* one file alone may not make more tokens than a whole translation unit */
  check_limit(t, ++s->ntok, &limit_tokens);
  return t;
}

static _Noreturn void scan_error(Scanner *s, char *at, const char *msg) {
  SrcLoc l = {s->file, s->line, (int)(at - s->line_start) + 1, at};
  diag_at(DIAG_ERROR, l, "%s", msg);
  carve_throw();
}

static int punct_len(const char *p) {
  static const char *kw[] = {
    "<<<", ">>>", "<<=", ">>=", "...", "==", "!=", "<=", ">=", "->", "+=", "-=", "*=",
    "/=",  "%=",  "&=",  "|=",  "^=",  "&&", "||", "++", "--", "<<", ">>", "##", "::"};
  for (size_t i = 0; i < sizeof kw / sizeof *kw; i++)
    if (p[0] == kw[i][0] && p[1] == kw[i][1] && (kw[i][2] == 0 || p[2] == kw[i][2]))
      return kw[i][2] ? 3 : 2;
  return (*p && strchr("!%&()*+,-./:;<=>?[]^{|}~#", *p)) ? 1 : 0;
}

static int read_escape(Scanner *s, char **pp) {
  char *p = *pp;
  if ('0' <= *p && *p <= '7') {
    int c = 0;
    for (int i = 0; i < 3 && '0' <= *p && *p <= '7'; i++) c = c * 8 + (*p++ - '0');
    *pp = p;
    return c;
  }
  if (*p == 'x') {
    p++;
    if (!isxdigit((unsigned char)*p)) scan_error(s, p, "invalid hex escape sequence");
    int c = 0;
    for (; isxdigit((unsigned char)*p); p++)
      c = (c << 4) +
          (isdigit((unsigned char)*p) ? *p - '0' : (tolower((unsigned char)*p) - 'a' + 10)),
      c &= 0xff;
    *pp = p;
    return c;
  }
  *pp = p + 1;
  switch (*p) {
  case 'a': return 7;
  case 'b': return 8;
  case 't': return 9;
  case 'n': return 10;
  case 'v': return 11;
  case 'f': return 12;
  case 'r': return 13;
  case 'e': return 27;
  default: return (unsigned char)*p;
  }
}

static char *string_end(Scanner *s, char *start, char *p, char quote) {
  for (; *p != quote; p++) {
    if (*p == '\n' || *p == '\0')
      scan_error(s, start,
                 quote == '"' ? "unterminated string literal" : "unterminated character constant");
    if (*p == '\\') p++;
  }
  return p;
}

static Token *read_string(Scanner *s, char *start) {
  char *end = string_end(s, start, start + 1, '"');
  char *buf = arena_alloc((size_t)(end - start));
  int len = 0;
  for (char *p = start + 1; p < end;) {
    if (*p == '\\') {
      p++;
      buf[len++] = (char)read_escape(s, &p);
    } else buf[len++] = *p++;
  }
  Token *t = new_token(s, TK_STR, start, end + 1);
  t->str = buf;
  t->ival = len;
  t->ty = array_of(ty_char, len + 1);
  return t;
}

static Token *read_char(Scanner *s, char *start) {
  char *p = start + 1;
  if (*p == '\n' || *p == 0) scan_error(s, start, "unterminated character constant");
  if (*p == '\'') scan_error(s, start, "empty character constant");
  int c;
  if (*p == '\\') {
    p++;
    c = read_escape(s, &p);
  } else c = (unsigned char)*p++;
  char *end = *p == '\'' ? p : string_end(s, start, p, '\'');
  Token *t = new_token(s, TK_NUM, start, end + 1);
  t->ival = (signed char)c;
  t->ty = ty_int;
  return t;
}

static const char *keywords[] = {
  "return",
  "if",
  "else",
  "for",
  "while",
  "do",
  "switch",
  "case",
  "default",
  "break",
  "continue",
  "goto",
  "sizeof",
  "typedef",
  "struct",
  "union",
  "enum",
  "void",
  "char",
  "short",
  "int",
  "long",
  "float",
  "double",
  "signed",
  "unsigned",
  "const",
  "volatile",
  "static",
  "extern",
  "inline",
  "register",
  "auto",
  "_Bool",
  "bool",
  "restrict",
  "__restrict__",
  "__restrict",
  "__global__",
  "__device__",
  "__host__",
  "__shared__",
  "__constant__",
  "__forceinline__",
  "__noinline__",
  "__launch_bounds__",
  "_Alignof",
  "_Alignas",
  "__align__",
  /* C++ words that name constructs carve does not support (recognized to say so) */
  "template",
  "class",
  "namespace",
  "using",
  "operator",
  "new",
  "delete",
  "typename",
  "public",
  "private",
  "protected",
  "virtual",
  "this",
  "throw",
  "try",
  "catch",
  "constexpr",
  "auto",
};

static bool is_keyword(Token *t) {
  for (size_t i = 0; i < sizeof keywords / sizeof *keywords; i++)
    if (tok_equal(t, keywords[i])) return true;
  return false;
}

Token *tokenize(SrcFile *f) {
  Scanner s = {f, f->contents, 1, f->contents, true, false, 0};
  Token head = {0}, *cur = &head;
  char *p = f->contents;
  while (*p) {
    if (p[0] == '/' && p[1] == '/') {
      while (*p && *p != '\n') p++;
      s.has_space = true;
      continue;
    }
    if (p[0] == '/' && p[1] == '*') {
      char *q = strstr(p + 2, "*/");
      if (!q) scan_error(&s, p, "unterminated comment");
      for (char *r = p; r < q; r++)
        if (*r == '\n') {
          s.line++;
          s.line_start = r + 1;
        }
      p = q + 2;
      s.has_space = true;
      continue;
    }
    if (*p == '\n') {
      p++;
      s.line++;
      s.line_start = p;
      s.at_bol = true;
      s.has_space = false;
      continue;
    }
    if (isspace((unsigned char)*p)) {
      p++;
      s.has_space = true;
      continue;
    }
    if (isdigit((unsigned char)*p) || (*p == '.' && isdigit((unsigned char)p[1]))) {
      char *q = p++;
      for (;;) {
        if (p[0] && p[1] && strchr("eEpP", p[0]) && strchr("+-", p[1])) p += 2;
        else if (isalnum((unsigned char)*p) || *p == '.' || *p == '_') p++;
        else break;
      }
      cur = cur->next = new_token(&s, TK_PP_NUM, q, p);
      continue;
    }
    if (*p == '"') {
      cur = cur->next = read_string(&s, p);
      p += cur->len;
      continue;
    }
    if (*p == '\'') {
      cur = cur->next = read_char(&s, p);
      p += cur->len;
      continue;
    }
    if (isalpha((unsigned char)*p) || *p == '_' || *p == '$') {
      char *q = p;
      while (isalnum((unsigned char)*p) || *p == '_' || *p == '$') p++;
      cur = cur->next = new_token(&s, TK_IDENT, q, p);
      continue;
    }
    int n = punct_len(p);
    if (n) {
      cur = cur->next = new_token(&s, TK_PUNCT, p, p + n);
      p += n;
      continue;
    }
    if ((unsigned char)*p >= 0x20 && (unsigned char)*p < 0x7f)
      scan_error(&s, p, fmt("stray '%c' in program", *p));
    scan_error(&s, p, fmt("stray byte 0x%02x in program", (unsigned char)*p));
  }
  cur = cur->next = new_token(&s, TK_EOF, p, p);
  cur->at_bol = true;
  return head.next;
}

static SrcFile *new_file(const char *name, char *contents) {
  SrcFile *f = arena_alloc(sizeof(SrcFile));
  f->name = arena_strdup(name);
  f->id = front_global.nfiles;
  /* canonicalize: drop "\\\n" line continuations, make sure the text ends with a newline,
   * and turn NUL bytes into a diagnostic instead of a silent truncation */
  size_t n = strlen(contents);
  char *c = arena_alloc(n + 2);
  size_t j = 0;
  for (size_t i = 0; i < n; i++) {
    if (contents[i] == '\r' && contents[i + 1] == '\n') continue;
    c[j++] = contents[i];
  }
  if (j == 0 || c[j - 1] != '\n') c[j++] = '\n';
  c[j] = 0;
  f->contents = c;
  front_global.nfiles++;
  return f;
}

/* Line continuations are removed by joining lines, but the lines after a continuation keep
 * their numbers by inserting the newlines back at the end of the joined logical line. */
static void remove_backslash_newline(char *p) {
  size_t i = 0, j = 0;
  int pending = 0;
  while (p[i]) {
    if (p[i] == '\\' && p[i + 1] == '\n') {
      i += 2;
      pending++;
    } else if (p[i] == '\n') {
      p[j++] = p[i++];
      for (; pending > 0; pending--) p[j++] = '\n';
    } else p[j++] = p[i++];
  }
  for (; pending > 0; pending--) p[j++] = '\n';
  p[j] = 0;
}

Token *tokenize_string(const char *name, const char *text) {
  SrcFile *f = new_file(name, (char *)text);
  remove_backslash_newline(f->contents);
  return tokenize(f);
}

/* A bounded read: base.c's read_file reads until EOF, which /dev/zero never reaches. */
typedef struct {
  const char *path;
  const Token *site;
  char *buf;
  int fd;
} Reader;

static void reader_close(Reader *r) {
  free(r->buf);
  r->buf = NULL;
  if (r->fd >= 0) close(r->fd);
  r->fd = -1;
}

/* an error about the file's text: at the #include (site), else at the file's start */
static _Noreturn void read_error(Reader *r, const char *msg) {
  reader_close(r);
  if (r->site) error_tok(r->site, "'%s' %s", r->path, msg);
  SrcFile *f = new_file(r->path, "");
  diag_at(DIAG_ERROR, (SrcLoc){f, 1, 1, NULL}, "file %s", msg);
  carve_throw();
}

static _Noreturn void too_large(Reader *r) {
  reader_close(r);
  if (r->site) check_limit(r->site, LIMIT_SOURCE_BYTES + 1, &limit_source_bytes);
  limit_error_in_file(r->path, &limit_source_bytes);
}

/* the file's bytes, at most max; NULL with errno set when it cannot be opened or read */
static char *read_bounded(Reader *r, long long max, size_t *len) {
  r->fd = open(r->path, O_RDONLY | O_CLOEXEC);
  if (r->fd < 0) return NULL;
  struct stat st;
  int err = 0;
  if (fstat(r->fd, &st) < 0) err = errno;
  else if (S_ISDIR(st.st_mode)) err = EISDIR;
  if (err) {
    reader_close(r);
    errno = err;
    return NULL;
  }
  if (S_ISREG(st.st_mode) && st.st_size > max) too_large(r);
  /* a pipe or a device has no size: read in chunks, never past max */
  size_t n = 0, cap = S_ISREG(st.st_mode) ? (size_t)st.st_size + 1 : 65536;
  r->buf = xmalloc(cap + 1);
  for (;;) {
    if (n == cap) {
      cap = cap * 2 > (size_t)max + 1 ? (size_t)max + 1 : cap * 2;
      r->buf = xrealloc(r->buf, cap + 1);
    }
    ssize_t k = read(r->fd, r->buf + n, cap - n);
    if (k < 0 && errno == EINTR) continue;
    if (k < 0) {
      err = errno;
      reader_close(r);
      errno = err;
      return NULL;
    }
    if (k == 0) break;
    if (memchr(r->buf + n, 0, (size_t)k)) read_error(r, "contains NUL bytes; not a source file");
    n += (size_t)k;
    if ((long long)n > max) too_large(r);
  }
  close(r->fd);
  r->fd = -1;
  r->buf[n] = 0;
  *len = n;
  return r->buf;
}

Token *tokenize_file_bounded(const char *path, const Token *site, long long max_bytes) {
  Reader r = {path, site, NULL, -1};
  size_t len;
  char *p = read_bounded(&r, max_bytes, &len);
  if (!p) return NULL;
  /* the read buffer is freed before tokenizing: a lexical error unwinds with longjmp */
  char *text = arena_strndup(p, len);
  reader_close(&r);
  return tokenize_string(path, text);
}

Token *tokenize_file(const char *path) {
  return tokenize_file_bounded(path, NULL, LIMIT_SOURCE_BYTES);
}

/* ---- numbers, after preprocessing ---- */
static bool convert_int(Token *t) {
  char *p = t->loc;
  int base = 10;
  if (!strncasecmp(p, "0x", 2) && isxdigit((unsigned char)p[2])) {
    p += 2;
    base = 16;
  } else if (!strncasecmp(p, "0b", 2) && (p[2] == '0' || p[2] == '1')) {
    p += 2;
    base = 2;
  } else if (*p == '0') base = 8;
  if (base == 8) {
    /* "08" is an error, not the double 8.0 */
    char *q = p;
    while (q < t->loc + t->len && isdigit((unsigned char)*q)) q++;
    bool is_float =
      q < t->loc + t->len && (*q == '.' || *q == 'e' || *q == 'E' || *q == 'f' || *q == 'F');
    if (!is_float)
      for (char *d = p; d < q; d++)
        if (*d == '8' || *d == '9') error_tok(t, "invalid digit '%c' in octal constant", *d);
  }
  errno = 0;
  unsigned long long v = strtoull(p, &p, base);
  bool overflow = errno == ERANGE;
  bool l = false, u = false;
  int nl = 0;
  while (p < t->loc + t->len) {
    if (*p == 'u' || *p == 'U') {
      if (u) return false;
      u = true;
      p++;
    } else if (*p == 'l' || *p == 'L') {
      if (nl) return false;
      nl = (p[1] == p[0]) ? 2 : 1;
      p += nl;
      l = true;
    } else return false;
  }
  /* C11 6.4.4.1p6: a constant no type can represent has none; it is not wrapped to -1 */
  if (overflow) error_tok(t, "integer literal is too large to be represented in any integer type");
  Type *ty;
  if (base == 10) {
    if (l) ty = u ? ty_ulong : ty_long;
    else if (u) ty = (v >> 32) ? ty_ulong : ty_uint;
    else ty = (v >> 31) ? ty_long : ty_int;
    if (!u && (v >> 63)) {
      warn_tok(
        t,
        "integer literal is too large to be represented in a signed integer type, interpreting as unsigned");
      ty = ty_ulong;
    }
  } else {
    if (l) ty = (v >> 63) ? ty_ulong : (u ? ty_ulong : ty_long);
    else if (u) ty = (v >> 32) ? ty_ulong : ty_uint;
    else if (v >> 63) ty = ty_ulong;
    else if (v >> 32) ty = ty_long;
    else if (v >> 31) ty = ty_uint;
    else ty = ty_int;
  }
  (void)nl;
  t->kind = TK_NUM;
  t->ival = (int64_t)v;
  t->ty = ty;
  return true;
}

/* a floating constant out of its type's range becomes inf or 0: say so, as clang does */
static void check_float_range(Token *t, double v, bool range_error, bool is_float) {
  double max = is_float ? FLT_MAX : DBL_MAX;
  const char *ty = is_float ? "float" : "double";
  if (isinf(v) || fabs(v) > max)
    warn_tok(t, "magnitude of floating-point constant too large for type '%s'; maximum is %.17g",
             ty, max);
  else if (range_error && v == 0)
    warn_tok(t, "magnitude of floating-point constant too small for type '%s'", ty);
  else if (is_float && v != 0 && (float)v == 0)
    warn_tok(t, "magnitude of floating-point constant too small for type 'float'");
}

static void convert_number(Token *t) {
  if (convert_int(t)) return;
  char *end;
  char *s = arena_strndup(t->loc, (size_t)t->len);
  errno = 0;
  double v = strtod(s, &end);
  bool range_error = errno == ERANGE;
  Type *ty = ty_double;
  bool is_float = false;
  if (*end == 'f' || *end == 'F') {
    ty = ty_float;
    end++;
    is_float = true;
  } else if (*end == 'l' || *end == 'L') end++;
  if (*end) {
    bool looks_float =
      strpbrk(s, ".eEpP") && !(s[0] == '0' && (s[1] == 'x' || s[1] == 'X') && !strpbrk(s, ".pP"));
    if (end == s) error_tok(t, "invalid numeric constant '%s'", s);
    error_tok(t, "invalid suffix '%s' on %s constant", end, looks_float ? "floating" : "integer");
  }
  if (is_float) {
    /* rounded to float in one step, as C does: through double, 3.40282347e+38F (FLT_MAX as
     * <float.h> spells it) is above FLT_MAX and was taken for an overflow */
    errno = 0;
    float f = strtof(s, NULL);
    range_error = errno == ERANGE;
    v = f;
  }
  check_float_range(t, v, range_error, is_float);
  t->kind = TK_NUM;
  t->fval = v;
  t->ty = ty;
}

void convert_pp_tokens(Token *tok) {
  for (Token *t = tok; t->kind != TK_EOF; t = t->next) {
    if (t->kind == TK_IDENT && is_keyword(t)) t->kind = TK_KEYWORD;
    else if (t->kind == TK_PP_NUM) convert_number(t);
  }
}
