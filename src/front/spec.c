/* spec: the `#pragma carve` launch specifications that let `carve run FILE.cu` work with no
 * flags (docs/launch-spec.md), and the same settings given as flags. */
#include "front.h"
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---------------- launch specifications ---------------- */
static int64_t int_expr(Token **rest, Token *tok, const char *what) {
  CValue v = const_eval(rest, tok, false, spec_typename);
  if (v.is_float) error_tok(tok, "%s must be an integer", what);
  return v.i;
}

/* dims = "(" expr ("," expr ("," expr)?)? ")"; what: "grid" or "block" in a pragma, NULL for a
 * flag (whose name the caller puts before the message) */
static Token *dims(Token *tok, int64_t d[3], const char *what) {
  const char *w = what ? what : "the value";
  if (!tok_equal(tok, "(")) error_tok(tok, "expected '(' after '%s'", w);
  tok = tok->next;
  d[0] = d[1] = d[2] = 1;
  for (int i = 0; i < 3; i++) {
    Token *e = tok;
    d[i] = int_expr(&tok, tok, what ? what : "a dimension");
    if (d[i] <= 0)
      error_tok(e, "%s%sdimension %c is %lld; it must be positive", what ? what : "",
                what ? " " : "", "xyz"[i], (long long)d[i]);
    if (!tok_equal(tok, ",")) break;
    tok = tok->next;
    if (i == 2) error_tok(tok, "%s has at most 3 dimensions", w);
  }
  if (!tok_equal(tok, ")")) error_tok(tok, "expected ')' after %s dimensions", what ? what : "the");
  return tok->next;
}

/* launch = ident ("grid" dims | "block" dims | "shared" "(" expr ")")* */
static LaunchSpec *parse_launch(Token *tok) {
  LaunchSpec *s = arena_alloc(sizeof(LaunchSpec));
  if (tok->kind != TK_IDENT) error_tok(tok, "expected a kernel name after 'launch'");
  s->kernel = tok_text(tok);
  s->tok = tok;
  s->grid[0] = s->grid[1] = s->grid[2] = 1;
  s->block[0] = s->block[1] = s->block[2] = 1;
  tok = tok->next;
  while (tok->kind != TK_EOF) {
    if (tok_equal(tok, "grid")) {
      tok = dims(tok->next, s->grid, "grid");
      s->has_grid = true;
    } else if (tok_equal(tok, "block")) {
      tok = dims(tok->next, s->block, "block");
      s->has_block = true;
    } else if (tok_equal(tok, "shared")) {
      tok = tok->next;
      if (!tok_equal(tok, "(")) error_tok(tok, "expected '(' after 'shared'");
      s->dyn_shared = int_expr(&tok, tok->next, "shared");
      if (s->dyn_shared < 0) error_tok(tok, "dynamic shared memory size is negative");
      if (!tok_equal(tok, ")")) error_tok(tok, "expected ')'");
      tok = tok->next;
    } else
      error_tok(tok, "unknown launch setting '%.*s' (expected grid, block or shared)", tok->len,
                tok->loc);
  }
  return s;
}

static double num_arg(Token **rest, Token *tok) {
  CValue v = const_eval(rest, tok, false, spec_typename);
  return v.is_float ? v.d : (double)v.i;
}

/* init = "zeros" | "fill" "(" expr ")" | "iota" ("(" expr ("," expr)? ")")?
 *      | "random" "(" expr ("," expr "," expr)? ")" | "file" "(" string ")" */
static Token *parse_init(Token *tok, ArgSpec *a, const char *dir) {
  Token *name = tok;
  a->init = INIT_ZEROS;
  if (tok_equal(tok, "zeros")) return tok->next;
  if (tok_equal(tok, "iota")) {
    a->init = INIT_IOTA;
    a->a = 0;
    a->b = 1;
    tok = tok->next;
    if (!tok_equal(tok, "(")) return tok;
    a->a = num_arg(&tok, tok->next);
    if (tok_equal(tok, ",")) a->b = num_arg(&tok, tok->next);
    if (!tok_equal(tok, ")")) error_tok(tok, "expected ')'");
    return tok->next;
  }
  if (tok_equal(tok, "fill")) {
    a->init = INIT_FILL;
    tok = tok->next;
    if (!tok_equal(tok, "(")) error_tok(tok, "expected '(' after 'fill'");
    a->a = num_arg(&tok, tok->next);
    if (!tok_equal(tok, ")")) error_tok(tok, "expected ')'");
    return tok->next;
  }
  if (tok_equal(tok, "random")) {
    a->init = INIT_RANDOM;
    tok = tok->next;
    if (!tok_equal(tok, "("))
      error_tok(tok, "expected '(' after 'random' (random(SEED[, LO, HI]))");
    int64_t seed = int_expr(&tok, tok->next, "random seed");
    a->seed = (uint64_t)seed;
    if (tok_equal(tok, ",")) {
      a->a = num_arg(&tok, tok->next);
      if (!tok_equal(tok, ","))
        error_tok(name, "random takes a seed, or a seed and both LO and HI");
      a->b = num_arg(&tok, tok->next);
      a->has_range = true;
      if (!(a->b > a->a)) error_tok(name, "random range is empty: HI must be greater than LO");
    }
    if (!tok_equal(tok, ")")) error_tok(tok, "expected ')'");
    return tok->next;
  }
  if (tok_equal(tok, "file")) {
    a->init = INIT_FILE;
    tok = tok->next;
    if (!tok_equal(tok, "(") || tok->next->kind != TK_STR)
      error_tok(tok, "expected file(\"PATH\")");
    tok = tok->next;
    char *path = tok->str;
    a->path = (path[0] == '/' || !dir) ? arena_strdup(path) : fmt("%s/%s", dir, path);
    tok = tok->next;
    if (!tok_equal(tok, ")")) error_tok(tok, "expected ')'");
    return tok->next;
  }
  error_tok(tok, "unknown initializer '%.*s' (expected zeros, fill, iota, random or file)",
            tok->len, tok->loc);
}

static bool starts_type(Token *tok) {
  static const char *kw[] = {"float", "double", "int",  "unsigned", "signed", "char",
                             "short", "long",   "bool", "const",    "struct"};
  for (size_t i = 0; i < sizeof kw / sizeof *kw; i++)
    if (tok_equal(tok, kw[i])) return true;
  if (tok->kind != TK_IDENT) return false;
  /* a typedef or vector name is followed by '[' in a buffer setting */
  return tok_equal(tok->next, "[") || tok_equal(tok->next, "*");
}

/* arg = ident "=" (expr | type "[" expr "]" ":" init "out"?) */
static ArgSpec *parse_arg(Token *tok, const char *dir) {
  ArgSpec *a = arena_alloc(sizeof(ArgSpec));
  if (tok->kind != TK_IDENT) error_tok(tok, "expected a parameter name");
  a->name = tok_text(tok);
  a->tok = tok;
  tok = tok->next;
  if (!tok_equal(tok, "=")) error_tok(tok, "expected '=' after the parameter name");
  tok = tok->next;
  if (tok_equal(tok, "alias") &&
      tok_equal(tok->next, "(")) { /* alias(P [, OFF]): P's buffer, OFF bytes in */
    a->is_buffer = true;
    tok = tok->next->next;
    if (tok->kind != TK_IDENT)
      error_tok(tok, "expected the name of an earlier pointer parameter in alias(...)");
    a->alias = tok_text(tok);
    tok = tok->next;
    if (tok_equal(tok, ",")) a->alias_off = int_expr(&tok, tok->next, "alias offset");
    if (!tok_equal(tok, ")")) error_tok(tok, "expected ')' after alias(NAME, BYTES)");
    if (a->alias_off < 0)
      error_tok(a->tok, "alias offset %lld is negative", (long long)a->alias_off);
    tok = tok->next;
  } else if (starts_type(tok)) {
    a->is_buffer = true;
    Token *rest;
    Type *ty = spec_base_type(&rest, tok);
    tok = rest;
    if (!tok_equal(tok, "[")) error_tok(tok, "expected '[COUNT]' after the buffer element type");
    a->count = int_expr(&tok, tok->next, "buffer count");
    if (!tok_equal(tok, "]")) error_tok(tok, "expected ']'");
    tok = tok->next;
    if (a->count <= 0)
      error_tok(a->tok, "buffer '%s' has %lld elements; it needs at least one", a->name,
                (long long)a->count);
    if (!is_numeric(ty) && !(ty->kind == TY_STRUCT && ty->is_vector))
      error_tok(a->tok, "buffer element type '%s' is not a number or vector type", type_name(ty));
    if ((double)a->count * ty->size > 16.0 * (1 << 30))
      error_tok(a->tok, "buffer '%s' is larger than 16 GiB", a->name);
    a->elem_ty = ty;
    if (!tok_equal(tok, ":")) error_tok(tok, "expected ': INIT' after the buffer size");
    tok = parse_init(tok->next, a, dir);
    if (tok_equal(tok, "out")) {
      a->out = true;
      tok = tok->next;
    }
  } else {
    a->scalar = const_eval(&tok, tok, false, spec_typename);
  }
  if (tok->kind != TK_EOF)
    error_tok(tok, "unexpected '%.*s' after the argument setting", tok->len, tok->loc);
  return a;
}

/* a launch's settings, one per parameter: a second `#pragma carve arg` for one parameter is an
 * error, as a second launch for one kernel is (which of the two meant what is not carve's guess) */
static void add_arg(LaunchSpec *s, ArgSpec *a) {
  ArgSpec **pp = &s->args;
  for (; *pp; pp = &(*pp)->next)
    if (!strcmp((*pp)->name, a->name))
      error_tok(a->tok,
                "a second '#pragma carve arg' for parameter '%s' of '%s' (the first is at line %d)",
                a->name, s->kernel ? s->kernel : "?", (*pp)->tok->line);
  *pp = a;
}

/* one `#pragma carve` line; the current launch spec is *cur */
static void spec_line(Program *p, Token *t, LaunchSpec **cur, const char *dir) {
  if (tok_equal(t, "launch")) {
    LaunchSpec *s = parse_launch(t->next);
    if (find_spec(p, s->kernel))
      error_tok(t->next, "a second launch specification for '%s'", s->kernel);
    LaunchSpec **tail = &p->specs;
    while (*tail) tail = &(*tail)->next;
    *tail = s;
    *cur = s;
  } else if (tok_equal(t, "arg")) {
    if (!*cur) error_tok(t, "'#pragma carve arg' before any '#pragma carve launch'");
    add_arg(*cur, parse_arg(t->next, dir));
  } else if (tok_equal(t, "tol")) {
    if (!*cur) error_tok(t, "'#pragma carve tol' before any '#pragma carve launch'");
    Token *u = t->next;
    bool rel = tok_equal(u, "rel");
    if (!rel && !tok_equal(u, "abs")) error_tok(u, "expected rel(R) or abs(A)");
    if (!tok_equal(u->next, "(")) error_tok(u->next, "expected '('");
    double v = num_arg(&u, u->next->next);
    if (!tok_equal(u, ")")) error_tok(u, "expected ')'");
    if (v < 0) error_tok(u, "tolerance must not be negative");
    if (rel) (*cur)->rel_tol = v;
    else (*cur)->abs_tol = v;
  } else if (tok_equal(t, "work")) {
    if (!*cur) error_tok(t, "'#pragma carve work' before any '#pragma carve launch'");
    Token *u = t->next;
    while (u->kind != TK_EOF) {
      bool fl = tok_equal(u, "flops");
      if (!fl && !tok_equal(u, "bytes")) error_tok(u, "expected flops(EXPR) or bytes(EXPR)");
      if (!tok_equal(u->next, "(")) error_tok(u->next, "expected '('");
      double v = num_arg(&u, u->next->next);
      if (!tok_equal(u, ")")) error_tok(u, "expected ')'");
      if (v < 0) error_tok(u, "work must not be negative");
      if (fl) (*cur)->flops = v;
      else (*cur)->bytes = v;
      u = u->next;
    }
  } else if (tok_equal(t, "baseline")) {
    if (!*cur) error_tok(t, "'#pragma carve baseline' before any '#pragma carve launch'");
    Token *u = t->next;
    static const char *names[] = {"sgemm", "sgemv", "sgemv_t", "sger",    "sasum",
                                  "copy",  "sgeam", "sgemv2",  "cub_sum", "strsm"};
    static const int nargs[] = {3, 2, 2, 2, 1, 1, 2, 2, 1, 2};
    int which = -1;
    for (int i = 0; i < 10; i++)
      if (tok_equal(u, names[i])) which = i;
    if (which < 0)
      error_tok(
        u,
        "unknown baseline '%.*s' (expected sgemm(M,N,K), sgemv(M,N), sgemv_t(M,N), sgemv2(M,N), sger(M,N), sasum(N), "
        "cub_sum(N), strsm(N,M), sgeam(M,N) or copy(BYTES))",
        u->len, u->loc);
    (*cur)->baseline = names[which];
    if (!tok_equal(u->next, "(")) error_tok(u->next, "expected '('");
    u = u->next->next;
    for (int i = 0; i < nargs[which]; i++) {
      if (i) {
        if (!tok_equal(u, ","))
          error_tok(u, "baseline %s takes %d arguments", names[which], nargs[which]);
        u = u->next;
      }
      (*cur)->baseline_args[i] = int_expr(&u, u, "baseline argument");
      if ((*cur)->baseline_args[i] <= 0) error_tok(u, "baseline sizes must be positive");
    }
    (*cur)->n_baseline_args = nargs[which];
    if (!tok_equal(u, ")")) error_tok(u, "expected ')'");
  } else {
    error_tok(t, "unknown '#pragma carve %.*s' (expected launch, arg, tol, work or baseline)",
              t->len, t->loc);
  }
}

typedef struct {
  Program *p;
  Token *t;
  LaunchSpec **cur;
  const char *dir;
} SpecCall;
static void spec_line_call(void *ud) {
  SpecCall *c = ud;
  spec_line(c->p, c->t, c->cur, c->dir);
}
static bool try_spec_line(Program *p, Token *t, LaunchSpec **cur, const char *dir) {
  SpecCall c = {p, t, cur, dir};
  return carve_pcall(spec_line_call, &c);
}

void build_specs(Program *p, const char *dir) {
  LaunchSpec *cur = NULL;
  LaunchSpec sink; /* lines after a broken launch line attach here, without follow-on errors */
  for (TopItem *it = p->items; it; it = it->next)
    if (it->kind == TOP_PRAGMA && it->tok->pragma_toks &&
        !try_spec_line(p, it->tok->pragma_toks, &cur, dir)) {
      p->errors++;
      if (tok_equal(it->tok->pragma_toks, "launch")) {
        memset(&sink, 0, sizeof sink);
        cur = &sink;
      }
    }
  /* every spec names a kernel of the file, and every arg one of its parameters */
  for (LaunchSpec *s = p->specs; s; s = s->next) {
    Obj *k = find_kernel(p, s->kernel);
    if (!k) {
      bool skipped = false;
      for (Obj *f = p->funcs; f; f = f->next)
        if (!strcmp(f->name, s->kernel)) skipped = true;
      diag_at(DIAG_ERROR, tok_loc(s->tok),
              skipped ? "'%s' is not a defined __global__ function"
                      : "no kernel named '%s' in this file",
              s->kernel);
      p->errors++;
      continue;
    }
    for (ArgSpec *a = s->args; a; a = a->next) {
      bool found = false;
      for (Obj *q = k->params; q; q = q->next)
        if (!strcmp(q->name, a->name)) found = true;
      if (!found) {
        diag_at(DIAG_ERROR, tok_loc(a->tok), "kernel '%s' has no parameter named '%s'", k->name,
                a->name);
        p->errors++;
      }
    }
  }
}

LaunchSpec *find_spec(Program *p, const char *kernel) {
  for (LaunchSpec *s = p->specs; s; s = s->next)
    if (!strcmp(s->kernel, kernel)) return s;
  return NULL;
}

typedef struct {
  const char *text, *dir;
  ArgSpec *a;
  int64_t *d;
} FlagCall;
static void arg_call(void *ud) {
  FlagCall *c = ud;
  c->a = parse_arg(pp_expand("<command line>", c->text), c->dir);
}

ArgSpec *parse_arg_setting(Program *p, const char *text, const char *dir) {
  ProgramScope ps = program_enter(p);
  FlagCall c = {text, dir, NULL, NULL};
  bool q = diag_quiet;
  diag_quiet = true; /* a flag has no source line: say which flag instead */
  carve_pcall(arg_call, &c);
  diag_quiet = q;
  program_leave(ps);
  if (!c.a) {
    char msg[sizeof diag_last_msg];
    snprintf(msg, sizeof msg, "%s", diag_last_msg);
    diag_at(DIAG_ERROR, (SrcLoc){0}, "--arg %s: %s", text, msg);
  }
  return c.a;
}

static void dims_call(void *ud) {
  FlagCall *c = ud;
  Token *t = pp_expand("<command line>", fmt("(%s)", c->text));
  t = dims(t, c->d, NULL);
  if (t->kind != TK_EOF) error_tok(t, "unexpected '%.*s'", t->len, t->loc);
}

bool parse_flag_dims(Program *p, const char *flag, const char *text, int64_t d[3]) {
  ProgramScope ps = program_enter(p);
  FlagCall c = {text, NULL, NULL, d};
  bool q = diag_quiet;
  diag_quiet = true; /* a flag has no source line: say which flag instead */
  bool ok = carve_pcall(dims_call, &c);
  diag_quiet = q;
  program_leave(ps);
  if (!ok) {
    char msg[sizeof diag_last_msg];
    snprintf(msg, sizeof msg, "%s", diag_last_msg);
    diag_at(DIAG_ERROR, (SrcLoc){0}, "%s %s: %s", flag, text, msg);
  }
  return ok;
}

/* ---------------- launches in the host code ---------------- */
/* out[i] = the first <<<...>>> of kernels[i] in the host code (walk order), or NULL: one walk of
 * the program for all of them (a walk per kernel made `carve check` of 5,000 kernels take
 * half a minute), each launch's kernel found by binary search among the kernels by address. */
typedef struct {
  Obj *k;
  int i;
} KernelAt;
typedef struct {
  KernelAt *by_addr;
  int n;
  Node **out;
} LaunchTable;
static int by_addr_cmp(const void *a, const void *b) {
  uintptr_t x = (uintptr_t)((const KernelAt *)a)->k, y = (uintptr_t)((const KernelAt *)b)->k;
  return x < y ? -1 : x > y;
}
static bool note_launch(Node *n, void *ctx) {
  LaunchTable *t = ctx;
  if (n->kind != ND_LAUNCH || !n->fn) return true;
  KernelAt key = {n->fn, 0};
  KernelAt *at = bsearch(&key, t->by_addr, (size_t)t->n, sizeof key, by_addr_cmp);
  if (at && !t->out[at->i]) t->out[at->i] = n;
  return true;
}
void first_launches(Program *p, Obj **kernels, int n, Node **out) {
  LaunchTable t = {xmalloc(sizeof(KernelAt) * (size_t)(n ? n : 1)), n, out};
  for (int i = 0; i < n; i++) {
    t.by_addr[i] = (KernelAt){kernels[i], i};
    out[i] = NULL;
  }
  qsort(t.by_addr, (size_t)n, sizeof(KernelAt), by_addr_cmp);
  walk_program(p, note_launch, NULL, &t);
  free(t.by_addr);
}
