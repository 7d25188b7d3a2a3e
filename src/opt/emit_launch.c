/* emit_launch: launches found from tokens alone, for host code the front end could not read (C++
 * host functions it skipped: `std::vector`, classes with member functions, `new`; bench/holdout4
 * DIAGNOSIS §2c). emit.c's kernel_edits rewrites a launch from its tokens already (the name, the
 * balanced operands of `<<<g, b, ...>>>` and the arguments `(...)` are token ranges it copies as
 * written); the parsed host AST only told it where the launches are. Here the token stream tells
 * it instead: every `K<<<` outside the functions carve parsed becomes a launch node holding its
 * name token, and the carve block (the original kernel and the launch tests) is moved before the
 * file-scope construct that holds a launch coming before the kernel's definition. What cannot be
 * told from tokens is refused with its reason, and the kernel then stays as written: a launch in
 * device code (dynamic parallelism: the host tests cannot run there), a qualified name
 * (`ns::K<<<`), an operand holding `<` (a template argument list and a comparison look alike
 * without a parser). */
#include "opt.h"
#include <string.h>

/* a token spelled in the file f itself, not produced by a macro */
static bool tok_in_file(const Token *t, const SrcFile *f) {
  return t && t->file == f && !t->origin && !t->macro;
}

/* where t's text stands in f: its own place, or its macro's use there (NULL: neither) */
static const char *tok_file_loc(const Token *t, const SrcFile *f) {
  if (tok_in_file(t, f)) return t->loc;
  if (t && t->origin && tok_in_file(t->origin, f)) return t->origin->loc;
  return NULL;
}

static bool is_name(const Token *t, const char *name) {
  return t && t->kind == TK_IDENT && t->len == (int)strlen(name) &&
         !strncmp(t->loc, name, (size_t)t->len);
}

/* t lies inside the definition of a function the front end read (host or device) */
static bool in_parsed_function(Program *p, const Token *t) {
  for (Obj *fn = p->funcs; fn; fn = fn->next) {
    if (!fn->body || !fn->def_start || !fn->body->end_tok) continue;
    const Token *a = fn->def_start, *z = fn->body->end_tok;
    if (a->file != t->file || z->file != t->file || a->origin || z->origin) continue;
    if (a->loc <= t->loc && t->loc <= z->loc) return true;
  }
  return false;
}

/* the operands of `<<<...>>>` after open hold a '<' of their own (a template's argument list
 * `f<a, b>(x)` would be split at its comma; a comparison is refused with it) */
static bool operands_angle(const Token *open) {
  int depth = 0;
  for (const Token *t = open->next; t && t->kind != TK_EOF; t = t->next) {
    if (depth == 0 && tok_equal(t, ">>>")) return false;
    if (tok_equal(t, "(") || tok_equal(t, "[") || tok_equal(t, "{")) depth++;
    else if (tok_equal(t, ")") || tok_equal(t, "]") || tok_equal(t, "}")) depth--;
    else if (tok_equal(t, "<")) return true;
  }
  return false;
}

/* the file-scope state of the token walk: the brace depth, each level's opening construct and
 * whether it is device code (a __global__ or __device__ in a head that opened a level) */
enum { TL_DEPTH = 256 };
typedef struct {
  int depth;
  Token *start;           /* the first token of the current file-scope construct */
  bool begin;             /* the next token at depth 0 starts a construct */
  bool head_dev;          /* a device qualifier since the last ';', '{' or '}' at this depth */
  bool dev[TL_DEPTH + 1]; /* the level at each depth is inside device code */
} TokWalk;

static void walk_step(TokWalk *w, Token *t) {
  if (w->depth == 0 && (w->begin || !w->start)) {
    w->start = t;
    w->begin = false;
  }
  if (t->kind == TK_PRAGMA && w->depth == 0) {
    w->begin = true;
    return;
  }
  if (tok_equal(t, "__global__") || tok_equal(t, "__device__") ||
      (t->macro && (!strcmp(t->macro, "__global__") || !strcmp(t->macro, "__device__"))))
    w->head_dev = true;
  if (tok_equal(t, "{")) {
    if (w->depth < TL_DEPTH) w->dev[w->depth + 1] = w->dev[w->depth] || w->head_dev;
    w->depth++;
    w->head_dev = false;
  } else if (tok_equal(t, "}")) {
    if (w->depth > 0) w->depth--;
    w->head_dev = false;
    if (w->depth == 0) w->begin = true;
  } else if (tok_equal(t, ";")) {
    w->head_dev = false;
    if (w->depth == 0) w->begin = true;
  }
}

int opt_token_launches(Program *orig, Obj *k, SrcFile *f, Node **launch, int *n, int max,
                       const char **block_at, char *why, size_t len) {
  Token *first = k->def_start;
  while (first->prev) first = first->prev;
  TokWalk w = {0};
  for (Token *q = first; q && q->kind != TK_EOF; q = q->next) {
    walk_step(&w, q);
    if (!is_name(q, k->name) || !tok_equal(q->next, "<<<")) continue;
    bool known = false;
    for (int i = 0; i < *n && !known; i++) known = launch[i]->tok == q;
    if (known) continue;
    if (w.depth > 0 && w.dev[w.depth < TL_DEPTH ? w.depth : TL_DEPTH]) {
      snprintf(why, len,
               "line %d: a launch of '%s' in device code carve could not read (the launch's "
               "tests run on the host)",
               q->line, k->name);
      return 2;
    }
    if (in_parsed_function(orig, q)) {
      snprintf(why, len, "line %d: a launch of '%s' carve did not read as one", q->line, k->name);
      return 2;
    }
    if (q->prev &&
        (tok_equal(q->prev, "::") || tok_equal(q->prev, ".") || tok_equal(q->prev, "->"))) {
      snprintf(why, len, "line %d: a qualified launch of '%s' in code carve could not read",
               q->line, k->name);
      return 2;
    }
    if (operands_angle(q->next)) {
      snprintf(why, len,
               "line %d: a launch operand of '%s' holds '<' in code carve could not read (a "
               "template's arguments cannot be told from a comparison there)",
               q->line, k->name);
      return 2;
    }
    if (*n == max) {
      snprintf(why, len, "more than %d launches of '%s'", max, k->name);
      return 2;
    }
    Node *nd = arena_alloc(sizeof(Node));
    nd->kind = ND_LAUNCH;
    nd->tok = q;
    nd->fn = k;
    launch[(*n)++] = nd;
    /* the carve block before the construct holding a launch that comes first */
    if (q->file == f && tok_in_file(q, f) && q->loc < *block_at) {
      const char *at = tok_file_loc(w.start, f);
      if (!at || at > q->loc) {
        snprintf(why, len,
                 "line %d: the code launching '%s' starts where the original kernel cannot be "
                 "placed before it",
                 q->line, k->name);
        return 2;
      }
      if (at < *block_at) *block_at = at;
    }
  }
  return 0;
}

int opt_unread_launches(Program *p, Obj *k, int *line, int max) {
  /* the stream the kernels were read from (the device library is parsed from text of its own) */
  Token *first = k ? k->def_start : NULL;
  for (Obj *fn = p->funcs; fn && !first; fn = fn->next)
    if (fn->is_kernel && fn->is_definition && fn->def_start) first = fn->def_start;
  if (!first) return 0;
  while (first->prev) first = first->prev;
  int n = 0;
  for (Token *q = first; q && q->kind != TK_EOF; q = q->next) {
    if (!tok_equal(q, "<<<") || !q->prev || q->prev->kind != TK_IDENT) continue;
    if (k && !is_name(q->prev, k->name)) continue;
    if (in_parsed_function(p, q)) continue;
    if (line && n < max) line[n] = q->line;
    n++;
  }
  return n;
}
