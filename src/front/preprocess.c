/* preprocess: macros (object-like, function-like, #, ##, variadic), #include, conditionals,
 * #pragma. Macro expansion follows Prosser's hideset algorithm, as chibicc does. Every token a
 * macro produces remembers its use site (Token.origin) so diagnostics point at the user's line. */
#include "limits.h"
#include "../hash.h"
#include <errno.h>
#include <libgen.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct MacroParam {
  struct MacroParam *next;
  char *name;
} MacroParam;
typedef Token *MacroHandler(Token *);

/* a function-like macro's parameters by spelling: open addressing, built with the definition,
 * so substitution looks a name up in constant time (a search per body token was a time bomb:
 * 20000 parameters took a second per use) */
typedef struct {
  const char *name;
  int len, index;
} ParamSlot;

typedef struct Macro {
  struct Macro *next;
  char *name;
  bool is_objlike;
  MacroParam *params;
  char *va_args_name;
  Token *body;
  MacroHandler *handler;
  bool deleted;
  ParamSlot *slots; /* mask + 1 of them; the variadic parameter is the last index */
  unsigned mask;
  int nparams;
} Macro;

/* A hideset is an immutable list of macro names, shared between tokens; `n` counts its names.
 * Names are interned (one pointer per spelling, see add_macro): membership is a pointer test. */
struct Hideset {
  Hideset *next;
  const char *name;
  int n;
};

typedef struct CondIncl {
  struct CondIncl *next;
  enum { IN_THEN, IN_ELIF, IN_ELSE } ctx;
  Token *tok;
  bool included;
} CondIncl;

/* The preprocessor's state: all of it, one struct (the parser's is ParseState, parse_int.h).
 * init_macros starts a translation unit; the macro table lives on in the Program
 * (pp_state_save) for settings read later. */
#define NAMESET_SLOTS 4096
typedef struct {
  Macro *macros[1024]; /* hashed by name */
  CondIncl *cond_incl; /* the #if blocks open */
  const PPOptions *opts;
  char **once_files;
  int n_once;      /* the files of #pragma once */
  long long made;  /* tokens and hideset entries made for this translation unit */
  long long bytes; /* its source text */
  Token *site;     /* the macro use being expanded: where a limit error points */
  int expansion_depth;
  const char *nameset_key[NAMESET_SLOTS]; /* hideset union and intersection: an open-addressing */
  unsigned nameset_gen[NAMESET_SLOTS], nameset_cur; /* table emptied by a new generation */
  int counter;                                      /* __COUNTER__ */
} PPState;
static PPState pp;

static unsigned hash(const char *s, int len) { return fnv1a32(s, (size_t)len) % 1024; }

static Macro *find_macro_n(const char *s, int len) {
  for (Macro *m = pp.macros[hash(s, len)]; m; m = m->next)
    if ((int)strlen(m->name) == len && !memcmp(m->name, s, (size_t)len))
      return m->deleted ? NULL : m;
  return NULL;
}
static Macro *find_macro(Token *t) {
  return t->kind == TK_IDENT ? find_macro_n(t->loc, t->len) : NULL;
}

static Macro *add_macro(char *name, bool objlike, Token *body) {
  Macro *m = arena_alloc(sizeof(Macro));
  unsigned h = hash(name, (int)strlen(name));
  /* one spelling, one name pointer, across #undef and redefinitions: hidesets hold these */
  for (Macro *o = pp.macros[h]; o; o = o->next)
    if (!strcmp(o->name, name)) {
      name = o->name;
      break;
    }
  m->name = name;
  m->is_objlike = objlike;
  m->body = body;
  m->next = pp.macros[h];
  pp.macros[h] = m;
  return m;
}

static void undef_macro(const char *name) {
  Macro *m = find_macro_n(name, (int)strlen(name));
  if (m) m->deleted = true;
}

/* ---- the budget (limits.h) ---- */

static void made(const Token *at, long long n) {
  pp.made += n;
  check_limit(pp.site ? pp.site : at, pp.made, &limit_tokens);
}

/* ---- hidesets ---- */
static Hideset *hideset_cons(const char *name, Hideset *next) {
  Hideset *h = arena_alloc(sizeof(Hideset));
  h->name = name;
  h->next = next;
  h->n = next ? next->n + 1 : 1;
  check_limit(pp.site, h->n, &limit_macro_nesting);
  made(NULL, 1);
  return h;
}
static bool hideset_contains(const Hideset *h, const char *name) {
  for (; h; h = h->next)
    if (h->name == name) return true;
  return false;
}
static Hideset *hideset_add(Hideset *h, const char *name) {
  return hideset_contains(h, name) ? h : hideset_cons(name, h);
}

/* Union and intersection in linear time (a quadratic test of every pair is a time bomb for
 * hidesets near the nesting limit): the names of one set go into an open-addressing table,
 * emptied by starting a new generation. */
_Static_assert(2 * LIMIT_MACRO_NESTING <= NAMESET_SLOTS,
               "the name table holds a hideset at most half full");

static unsigned nameset_slot(const char *name) {
  unsigned i = (unsigned)(((uintptr_t)name >> 3) * 2654435761u) & (NAMESET_SLOTS - 1);
  while (pp.nameset_gen[i] == pp.nameset_cur && pp.nameset_key[i] != name)
    i = (i + 1) & (NAMESET_SLOTS - 1);
  return i;
}
static void nameset_fill(const Hideset *h) {
  if (++pp.nameset_cur == 0) {
    memset(pp.nameset_gen, 0, sizeof pp.nameset_gen);
    pp.nameset_cur = 1;
  }
  for (; h; h = h->next) {
    unsigned i = nameset_slot(h->name);
    pp.nameset_key[i] = h->name;
    pp.nameset_gen[i] = pp.nameset_cur;
  }
}
static bool nameset_has(const char *name) {
  return pp.nameset_gen[nameset_slot(name)] == pp.nameset_cur;
}

/* the longer list is shared; only the other's missing names are new entries */
static Hideset *hideset_union(Hideset *a, Hideset *b) {
  if (!a || a == b) return b;
  if (!b) return a;
  if (a->n < b->n) {
    Hideset *t = a;
    a = b;
    b = t;
  }
  nameset_fill(a);
  for (; b; b = b->next)
    if (!nameset_has(b->name)) a = hideset_cons(b->name, a);
  return a;
}
static Hideset *hideset_intersection(Hideset *a, Hideset *b) {
  if (!a || !b || a == b) return a && b ? a : NULL;
  nameset_fill(b);
  Hideset *r = NULL;
  for (; a; a = a->next)
    if (nameset_has(a->name)) r = hideset_cons(a->name, r);
  return r;
}

/* ---- token list helpers ---- */
/* every token the preprocessor makes is one of the budget's (LIMIT_TOKENS) */
static Token *copy_token(Token *t) {
  made(t, 1);
  Token *u = arena_alloc(sizeof(Token));
  *u = *t;
  u->next = NULL;
  return u;
}
static Token *new_eof(Token *t) {
  Token *u = copy_token(t);
  u->kind = TK_EOF;
  u->len = 0;
  return u;
}
static Token *copy_list(Token *t) {
  Token head = {0}, *cur = &head;
  for (; t->kind != TK_EOF; t = t->next) cur = cur->next = copy_token(t);
  cur->next = new_eof(t);
  return head.next;
}
/* in place: the tokens of a fresh expansion take hs too (neighbours share their results) */
static void add_hideset(Token *tok, Hideset *hs) {
  Hideset *from = NULL, *to = hs;
  for (; tok->kind != TK_EOF; tok = tok->next) {
    if (tok->hideset != from) {
      from = tok->hideset;
      to = hideset_union(from, hs);
    }
    tok->hideset = to;
  }
}
/* link a fresh expansion (ending in EOF) to what follows the macro use */
static Token *splice(Token *body, Token *after) {
  if (body->kind == TK_EOF) return after;
  Token *t = body;
  while (t->next->kind != TK_EOF) t = t->next;
  t->next = after;
  return body;
}
/* a directive starts with '#' first on a line, never from a macro expansion (C11 6.10.3.4p3) */
static bool is_hash(Token *t) { return t->at_bol && !t->origin && tok_equal(t, "#"); }

static Token *skip_line(Token *tok) {
  if (tok->at_bol) return tok;
  warn_tok(tok, "extra tokens at end of directive");
  while (!tok->at_bol) tok = tok->next;
  return tok;
}

static Token *copy_line(Token **rest, Token *tok) {
  Token head = {0}, *cur = &head;
  Token *last = NULL;
  for (; !tok->at_bol; tok = tok->next) last = cur = cur->next = copy_token(tok);
  /* the end of the line sits just after its last token, so "expected ..." points there */
  Token *eof = new_eof(tok);
  if (last) {
    eof->file = last->file;
    eof->line = last->line;
    eof->col = last->col + last->len;
    eof->loc = last->loc + last->len;
    eof->origin = last->origin;
  }
  cur->next = eof;
  *rest = tok;
  return head.next;
}

/* ---- conditional skipping ---- */
/* past the #endif that closes an #if already read; a loop, not recursion: thousands of nested
 * #if in a skipped block must not exhaust the C stack */
static Token *skip_cond_incl2(Token *tok) {
  long depth = 1;
  while (tok->kind != TK_EOF) {
    if (is_hash(tok) && (tok_equal(tok->next, "if") || tok_equal(tok->next, "ifdef") ||
                         tok_equal(tok->next, "ifndef"))) {
      depth++;
      tok = tok->next->next;
      continue;
    }
    if (is_hash(tok) && tok_equal(tok->next, "endif")) {
      tok = tok->next->next;
      if (--depth == 0) return tok;
      continue;
    }
    tok = tok->next;
  }
  return tok;
}
static Token *skip_cond_incl(Token *tok) {
  while (tok->kind != TK_EOF) {
    if (is_hash(tok) && (tok_equal(tok->next, "if") || tok_equal(tok->next, "ifdef") ||
                         tok_equal(tok->next, "ifndef"))) {
      tok = skip_cond_incl2(tok->next->next);
      continue;
    }
    if (is_hash(tok) && (tok_equal(tok->next, "elif") || tok_equal(tok->next, "else") ||
                         tok_equal(tok->next, "endif")))
      break;
    tok = tok->next;
  }
  return tok;
}

static CondIncl *push_cond_incl(Token *tok, bool included) {
  CondIncl *ci = arena_alloc(sizeof(CondIncl));
  ci->next = pp.cond_incl;
  ci->ctx = IN_THEN;
  ci->tok = tok;
  ci->included = included;
  pp.cond_incl = ci;
  return ci;
}

/* ---- macro definitions ---- */
static unsigned spelling_hash(const char *s, int len) { return fnv1a32(s, (size_t)len); }

static int param_index(const Macro *m, const Token *t) {
  if (t->kind != TK_IDENT || !m->slots) return -1;
  for (unsigned h = spelling_hash(t->loc, t->len) & m->mask; m->slots[h].name;
       h = (h + 1) & m->mask)
    if (m->slots[h].len == t->len && !memcmp(m->slots[h].name, t->loc, (size_t)t->len))
      return m->slots[h].index;
  return -1;
}

static void add_param(Macro *m, const char *name, int index) {
  int len = (int)strlen(name);
  unsigned h = spelling_hash(name, len) & m->mask;
  for (; m->slots[h].name; h = (h + 1) & m->mask)
    if (m->slots[h].len == len && !memcmp(m->slots[h].name, name, (size_t)len))
      return; /* the first one names it */
  m->slots[h] = (ParamSlot){name, len, index};
}

static void index_params(Macro *m) {
  int n = m->va_args_name ? 1 : 0;
  for (MacroParam *p = m->params; p; p = p->next) n++;
  unsigned cap = 8;
  while (cap < 2u * (unsigned)n) cap *= 2;
  m->slots = arena_alloc(cap * sizeof(ParamSlot));
  m->mask = cap - 1;
  m->nparams = n;
  int i = 0;
  for (MacroParam *p = m->params; p; p = p->next) add_param(m, p->name, i++);
  if (m->va_args_name) add_param(m, m->va_args_name, i);
}

static MacroParam *read_macro_params(Token **rest, Token *tok, char **va_args_name) {
  MacroParam head = {0}, *cur = &head;
  while (!tok_equal(tok, ")")) {
    if (cur != &head) {
      if (!tok_equal(tok, ",")) error_tok(tok, "expected ',' or ')' in macro parameter list");
      tok = tok->next;
    }
    if (tok_equal(tok, "...")) {
      *va_args_name = "__VA_ARGS__";
      tok = tok->next;
      if (!tok_equal(tok, ")")) error_tok(tok, "expected ')' after '...'");
      break;
    }
    if (tok->kind != TK_IDENT) error_tok(tok, "expected a parameter name in macro definition");
    if (tok_equal(tok->next, "...")) {
      *va_args_name = tok_text(tok);
      tok = tok->next->next;
      if (!tok_equal(tok, ")")) error_tok(tok, "expected ')' after '...'");
      break;
    }
    MacroParam *m = arena_alloc(sizeof(MacroParam));
    m->name = tok_text(tok);
    cur = cur->next = m;
    tok = tok->next;
    if (tok->at_bol) error_tok(tok, "missing ')' in macro parameter list");
  }
  *rest = tok->next;
  return head.next;
}

static void read_macro_definition(Token **rest, Token *tok) {
  if (tok->kind != TK_IDENT || tok->at_bol) error_tok(tok, "macro name must be an identifier");
  char *name = tok_text(tok);
  if (!strcmp(name, "defined")) error_tok(tok, "'defined' cannot be used as a macro name");
  tok = tok->next;
  if (!tok->has_space && tok_equal(tok, "(") && !tok->at_bol) {
    char *va = NULL;
    MacroParam *params = read_macro_params(&tok, tok->next, &va);
    Macro *m = add_macro(name, false, copy_line(rest, tok));
    m->params = params;
    m->va_args_name = va;
    index_params(m);
    for (Token *t = m->body; t->kind != TK_EOF; t = t->next)
      if (tok_equal(t, "#") && param_index(m, t->next) < 0)
        error_tok(t, "'#' is not followed by a macro parameter");
  } else {
    add_macro(name, true, copy_line(rest, tok));
  }
  Macro *m = find_macro_n(name, (int)strlen(name));
  Token *b = m->body;
  if (b->kind != TK_EOF && tok_equal(b, "##"))
    error_tok(b, "'##' cannot appear at either end of a macro expansion");
  for (; b->kind != TK_EOF; b = b->next)
    if (tok_equal(b, "##") && b->next->kind == TK_EOF)
      error_tok(b, "'##' cannot appear at either end of a macro expansion");
}

/* ---- macro arguments ---- */
/* tok: the argument as written; expanded: macro-expanded, once, however often it is used */
typedef struct MacroArg {
  struct MacroArg *next;
  char *name;
  bool is_va;
  Token *tok, *expanded;
} MacroArg;

static MacroArg *read_macro_arg_one(Token **rest, Token *tok, bool read_rest, Token *call) {
  Token head = {0}, *cur = &head;
  int level = 0;
  for (;;) {
    if (level == 0 && tok_equal(tok, ")")) break;
    if (level == 0 && !read_rest && tok_equal(tok, ",")) break;
    if (tok->kind == TK_EOF)
      error_tok(call, "unterminated argument list invoking macro '%s'", tok_text(call));
    if (tok_equal(tok, "(")) level++;
    else if (tok_equal(tok, ")")) level--;
    cur = cur->next = copy_token(tok);
    tok = tok->next;
  }
  cur->next = new_eof(tok);
  MacroArg *arg = arena_alloc(sizeof(MacroArg));
  arg->tok = head.next;
  *rest = tok;
  return arg;
}

static MacroArg *read_macro_args(Token **rest, Token *tok, MacroParam *params, char *va_args_name,
                                 Token *call) {
  Token *start = tok;
  tok = tok->next->next;
  MacroArg head = {0}, *cur = &head;
  MacroParam *pp = params;
  for (; pp; pp = pp->next) {
    if (cur != &head) {
      if (!tok_equal(tok, ","))
        error_tok(start, "too few arguments to macro '%s'", tok_text(start));
      tok = tok->next;
    }
    cur = cur->next = read_macro_arg_one(&tok, tok, false, call);
    cur->name = pp->name;
  }
  if (va_args_name) {
    MacroArg *arg;
    if (tok_equal(tok, ")")) {
      arg = arena_alloc(sizeof(MacroArg));
      arg->tok = new_eof(tok);
    } else {
      if (pp != params) {
        if (!tok_equal(tok, ","))
          error_tok(start, "too few arguments to macro '%s'", tok_text(start));
        tok = tok->next;
      }
      arg = read_macro_arg_one(&tok, tok, true, call);
    }
    arg->name = va_args_name;
    arg->is_va = true;
    cur = cur->next = arg;
  } else if (!tok_equal(tok, ")")) {
    error_tok(start, "too many arguments to macro '%s'", tok_text(start));
  }
  *rest = tok;
  return head.next;
}

/* the argument a body token names, if it names a parameter (args: by parameter index) */
static MacroArg *find_arg(const Macro *m, MacroArg **args, const Token *tok) {
  int i = param_index(m, tok);
  return i >= 0 ? args[i] : NULL;
}

static char *join_tokens(Token *tok, Token *end) {
  Buf b = {0};
  for (Token *t = tok; t != end && t->kind != TK_EOF; t = t->next) {
    if (t != tok && t->has_space) buf_putc(&b, ' ');
    buf_printf(&b, "%.*s", t->len, t->loc);
  }
  char *s = arena_strdup(b.s ? b.s : "");
  buf_free(&b);
  return s;
}

static Token *stringize(Token *hash, Token *arg) {
  /* the string costs what its argument's tokens do */
  for (Token *t = arg; t->kind != TK_EOF; t = t->next) made(hash, 1);
  char *s = join_tokens(arg, NULL);
  Buf b = {0};
  buf_putc(&b, '"');
  for (char *p = s; *p; p++) {
    if (*p == '\\' || *p == '"') buf_putc(&b, '\\');
    buf_putc(&b, *p);
  }
  buf_puts(&b, "\"\n");
  char *text = arena_strdup(b.s);
  buf_free(&b);
  Token *t = tokenize_string(hash->file->name, text);
  t->origin = hash;
  t->at_bol = hash->at_bol; /* where the '#' stood, not the start of its own little file */
  t->has_space = hash->has_space;
  return t;
}

static void paste_tokenize(void *ud) {
  struct {
    const char *name, *text;
    Token *t;
  } *c = ud;
  c->t = tokenize_string(c->name, c->text);
}

static Token *paste(Token *lhs, Token *rhs) {
  char *buf = fmt("%.*s%.*s\n", lhs->len, lhs->loc, rhs->len, rhs->loc);
  struct {
    const char *name, *text;
    Token *t;
  } c = {lhs->file->name, buf, NULL};
  bool bad_quiet = diag_quiet;
  diag_quiet = true;
  carve_pcall(paste_tokenize, &c);
  diag_quiet = bad_quiet;
  Token *t = c.t;
  if (!t || t->next->kind != TK_EOF)
    error_tok(lhs, "pasting '%.*s' and '%.*s' does not give a valid token", lhs->len, lhs->loc,
              rhs->len, rhs->loc);
  /* the result keeps its own place (in the pasted text), so a caret never reads outside a
   * file's text; diagnostics follow origin to lhs as it was, whose macro the note names */
  Token *at = copy_token(lhs); /* lhs itself is overwritten with the result */
  Token *r = copy_token(t);
  r->at_bol = lhs->at_bol;
  r->has_space = lhs->has_space;
  r->origin = at;
  r->macro = NULL;
  return r;
}

static Token *expand_arg(MacroArg *arg);

/* a token of the macro's body, as the expansion at `site` makes it */
static Token *body_tok(Token *t, Token *site, Macro *m) {
  Token *c = copy_token(t);
  c->origin = site;
  c->macro = m->name;
  return c;
}

/* the tokens m's body becomes at site: parameters replaced by their arguments, # and ##
 * applied; every token is new, and the list ends in its own EOF */
static Token *subst(Macro *m, MacroArg **args, Token *site) {
  Token head = {0}, *cur = &head;
  Token *tok = m->body;
  while (tok->kind != TK_EOF) {
    if (tok_equal(tok, "#")) {
      MacroArg *arg = find_arg(m, args, tok->next);
      cur = cur->next = stringize(body_tok(tok, site, m), arg->tok);
      tok = tok->next->next;
      continue;
    }
    /* GNU ", ## __VA_ARGS__" drops the comma for an empty variadic argument */
    if (tok_equal(tok, ",") && tok_equal(tok->next, "##")) {
      MacroArg *arg = find_arg(m, args, tok->next->next);
      if (arg && arg->is_va) {
        if (arg->tok->kind == TK_EOF) tok = tok->next->next->next;
        else {
          cur = cur->next = body_tok(tok, site, m);
          tok = tok->next->next;
        }
        continue;
      }
    }
    if (tok_equal(tok, "##")) {
      if (cur == &head || tok->next->kind == TK_EOF)
        error_tok(body_tok(tok, site, m), "'##' cannot appear at either end of a macro expansion");
      MacroArg *arg = find_arg(m, args, tok->next);
      if (arg) {
        if (arg->tok->kind != TK_EOF) {
          *cur = *paste(cur, arg->tok);
          for (Token *t = arg->tok->next; t->kind != TK_EOF; t = t->next)
            cur = cur->next = copy_token(t);
        }
        tok = tok->next->next;
        continue;
      }
      *cur = *paste(cur, tok->next);
      tok = tok->next->next;
      continue;
    }
    MacroArg *arg = find_arg(m, args, tok);
    if (arg && tok_equal(tok->next, "##")) {
      Token *rhs = tok->next->next;
      if (arg->tok->kind == TK_EOF) {
        MacroArg *arg2 = find_arg(m, args, rhs);
        if (arg2) {
          for (Token *t = arg2->tok; t->kind != TK_EOF; t = t->next)
            cur = cur->next = copy_token(t);
        } else {
          cur = cur->next = body_tok(rhs, site, m);
        }
        tok = rhs->next;
        continue;
      }
      for (Token *t = arg->tok; t->kind != TK_EOF; t = t->next) cur = cur->next = copy_token(t);
      tok = tok->next;
      continue;
    }
    if (arg) {
      for (Token *t = expand_arg(arg); t->kind != TK_EOF; t = t->next)
        cur = cur->next = copy_token(t);
      tok = tok->next;
      continue;
    }
    cur = cur->next = body_tok(tok, site, m);
    tok = tok->next;
  }
  cur->next = new_eof(tok);
  return head.next;
}

static Token *preprocess2(Token *tok);
static bool expand_macro(Token **rest, Token *tok);

/* C11 6.10.3.1: an argument is fully macro-expanded before substitution, as if it were the
 * rest of the file; the same for every use, so it is expanded once (its own copy, relinked in
 * place as it expands) */
static Token *expand_arg(MacroArg *arg) {
  if (arg->expanded) return arg->expanded;
  Token head = {0}, *cur = &head;
  Token *tok = copy_list(arg->tok);
  while (tok->kind != TK_EOF) {
    if (expand_macro(&tok, tok)) continue;
    cur = cur->next = tok;
    tok = tok->next;
  }
  cur->next = tok;
  return arg->expanded = head.next;
}

/* Every token of an expansion is made once (copy_token, counted) and spliced in front of what
 * follows: nothing is copied again, so memory grows with the tokens kept, not with the nesting. */
static bool expand_macro(Token **rest, Token *tok) {
  Macro *m = find_macro(tok);
  if (!m || hideset_contains(tok->hideset, m->name)) return false;
  if (m->handler) {
    *rest = m->handler(tok);
    (*rest)->next = tok->next;
    return true;
  }
  if (!m->is_objlike && !tok_equal(tok->next, "(")) return false;
  Token *outer = pp.site;
  pp.site = tok;
  check_limit(tok, ++pp.expansion_depth, &limit_macro_nesting);
  Token *body, *after;
  Hideset *hs;
  if (m->is_objlike) {
    hs = hideset_add(tok->hideset, m->name);
    Token head = {0}, *cur = &head;
    for (Token *t = m->body; t->kind != TK_EOF; t = t->next) cur = cur->next = body_tok(t, tok, m);
    cur->next = new_eof(tok);
    body = head.next;
    after = tok->next;
  } else {
    Token *rparen;
    MacroArg *list = read_macro_args(&rparen, tok, m->params, m->va_args_name, tok);
    MacroArg **args = arena_alloc(sizeof(MacroArg *) * (size_t)(m->nparams + 1));
    for (int i = 0; list; list = list->next) args[i++] = list;
    hs = hideset_add(hideset_intersection(tok->hideset, rparen->hideset), m->name);
    /* body tokens get the macro's origin; argument tokens keep their own (they are user text) */
    body = subst(m, args, tok);
    after = rparen->next;
  }
  add_hideset(body, hs);
  *rest = splice(body, after);
  if (*rest != after) {
    (*rest)->at_bol = tok->at_bol;
    (*rest)->has_space = tok->has_space;
  }
  pp.expansion_depth--;
  pp.site = outer;
  return true;
}

/* ---- #include ---- */
static char *search_include(const char *name, Token *from) {
  if (name[0] == '/') return access(name, R_OK) == 0 ? arena_strdup(name) : NULL;
  char *dir = arena_strdup(from->file->name);
  char *path = fmt("%s/%s", dirname(dir), name);
  if (access(path, R_OK) == 0) return path;
  for (int i = 0; i < pp.opts->n_include_dirs; i++) {
    path = fmt("%s/%s", pp.opts->include_dirs[i], name);
    if (access(path, R_OK) == 0) return path;
  }
  return NULL;
}

/* Headers of the C and C++ libraries and of the CUDA toolkit: not read; the prelude and the
 * parser's builtins stand in for what kernels use from them. */
static bool known_system_header(const char *name) {
  static const char *exact[] = {
    "assert.h",        "ctype.h",        "errno.h",       "float.h",        "limits.h",
    "math.h",          "stdarg.h",       "stdbool.h",     "stddef.h",       "stdint.h",
    "inttypes.h",      "stdio.h",        "stdlib.h",      "string.h",       "time.h",
    "unistd.h",        "sys/time.h",     "sys/types.h",   "omp.h",          "malloc.h",
    "memory.h",        "signal.h",       "getopt.h",      "cassert",        "cctype",
    "cerrno",          "cfloat",         "climits",       "cmath",          "cstdarg",
    "cstddef",         "cstdint",        "cstdio",        "cstdlib",        "cstring",
    "ctime",           "algorithm",      "array",         "atomic",         "chrono",
    "complex",         "fstream",        "functional",    "iomanip",        "iostream",
    "istream",         "iterator",       "limits",        "list",           "map",
    "memory",          "numeric",        "ostream",       "random",         "set",
    "sstream",         "stdexcept",      "string",        "thread",         "tuple",
    "type_traits",     "unordered_map",  "unordered_set", "utility",        "vector",
    "queue",           "deque",          "mma.h",         "vector_types.h", "vector_functions.h",
    "builtin_types.h", "driver_types.h", "helper_math.h", "nvToolsExt.h",   "nvtx3/nvToolsExt.h",
    "mpi.h",
  };
  static const char *prefix[] = {"cuda",     "cooperative_groups",
                                 "cub/",     "thrust/",
                                 "cuda/",    "curand",
                                 "cublas",   "cufft",
                                 "cusparse", "cusolver",
                                 "cudnn",    "nvrtc",
                                 "nvml",     "sm_",
                                 "device_",  "crt/",
                                 "cute/",    "cutlass/"};
  for (size_t i = 0; i < sizeof exact / sizeof *exact; i++)
    if (!strcmp(name, exact[i])) return true;
  for (size_t i = 0; i < sizeof prefix / sizeof *prefix; i++)
    if (!strncmp(name, prefix[i], strlen(prefix[i]))) return true;
  return false;
}

static Token *include_file(Token *tok, const char *path, Token *filename_tok);
static Token *angle_include_name(const char *name, Token *lt, Token *next);
/* #include <NAME>: as nvcc and gcc do, the -I directories are searched; a system header not
 * found there is stood in for by the prelude; any other gets a warning naming it */
static Token *angle_include(Token *lt) {
  Token *gt = lt->next;
  while (!gt->at_bol && gt->kind != TK_EOF && !tok_equal(gt, ">")) gt = gt->next;
  if (!tok_equal(gt, ">") || gt->at_bol || gt->file != lt->file || gt->origin || lt->origin)
    error_tok(lt, "#include expects \"FILENAME\" or <FILENAME>");
  char *name = arena_strndup(lt->loc + 1, (size_t)(gt->loc - lt->loc - 1));
  return angle_include_name(name, lt, skip_line(gt->next));
}

/* the header <name> (its directive at lt), then next */
static Token *angle_include_name(const char *name, Token *lt, Token *next) {
  for (int i = 0; i < pp.opts->n_include_dirs && name[0] != '/'; i++) {
    char *path = fmt("%s/%s", pp.opts->include_dirs[i], name);
    if (access(path, R_OK) == 0) {
      if (pp.opts->no_includes) error_tok(lt, "#include is disabled here");
      return include_file(next, path, lt);
    }
  }
  if (!known_system_header(name))
    warn_tok(lt,
             "'%s' not found in the -I directories and not a system header carve knows; skipped "
             "(its declarations are unknown to carve: add -I DIR)",
             name);
  return next;
}

/* #include MACRO (C11 6.10.2p4, boost's `#include BOOST_USER_CONFIG`): the line's macros
 * expanded, the result a "FILENAME" or a <FILENAME> spelled by its tokens */
static Token *computed_include(Token *ft) {
  Token *next;
  Token *line = preprocess2(copy_line(&next, ft));
  if (line->kind == TK_STR && line->next->kind == TK_EOF) {
    char *name = arena_strndup(line->loc + 1, (size_t)line->len - 2);
    char *path = search_include(name, ft);
    if (!path && known_system_header(name)) return next;
    if (!path) error_tok(ft, "'%s' file not found (from the macro '%.*s')", name, ft->len, ft->loc);
    return include_file(next, path, ft);
  }
  if (tok_equal(line, "<")) {
    Buf b = {0};
    Token *t = line->next;
    for (; t->kind != TK_EOF && !tok_equal(t, ">"); t = t->next) {
      if (t->has_space && b.len) buf_putc(&b, ' ');
      buf_printf(&b, "%.*s", t->len, t->loc);
    }
    if (tok_equal(t, ">") && t->next->kind == TK_EOF && b.len) {
      char *name = arena_strdup(b.s);
      buf_free(&b);
      return angle_include_name(name, ft, next);
    }
    buf_free(&b);
  }
  error_tok(ft, "#include expects \"FILENAME\" or <FILENAME> (the macro '%.*s' expands to neither)",
            ft->len, ft->loc);
}

static bool is_once(const char *path) {
  char *rp = realpath(path, NULL);
  bool found = false;
  for (int i = 0; rp && i < pp.n_once; i++)
    if (!strcmp(pp.once_files[i], rp)) found = true;
  free(rp);
  return found;
}
static void mark_once(const char *path) {
  char *rp = realpath(path, NULL);
  if (!rp) return;
  pp.once_files = xrealloc(pp.once_files, sizeof(char *) * (size_t)(pp.n_once + 1));
  pp.once_files[pp.n_once++] = arena_strdup(rp);
  free(rp);
}

static Token *include_file(Token *tok, const char *path, Token *filename_tok) {
  if (is_once(path)) return tok;
  /* tokens are spliced in, not recursed into: the depth travels with each file */
  int depth = filename_tok->file->include_depth + 1;
  check_limit(filename_tok, depth, &limit_include_depth);
  Token *t = tokenize_file_bounded(path, filename_tok, LIMIT_SOURCE_BYTES - pp.bytes);
  if (!t) error_tok(filename_tok, "cannot open include file '%s': %s", path, strerror(errno));
  t->file->include_depth = depth;
  pp.bytes += (long long)strlen(t->file->contents);
  /* the file's tokens are the budget's too; they are spliced in, not copied */
  if (t->kind == TK_EOF) return tok; /* an empty file */
  Token *last = t;
  long long n = 1;
  for (; last->next->kind != TK_EOF; last = last->next) n++;
  made(filename_tok, n);
  last->next = tok;
  return t;
}

/* ---- #if ---- */
static Token *read_const_expr(Token **rest, Token *tok) {
  tok = copy_line(rest, tok);
  Token head = {0}, *cur = &head;
  while (tok->kind != TK_EOF) {
    if (tok_equal(tok, "defined")) {
      Token *start = tok;
      bool has_paren = tok_equal(tok->next, "(");
      tok = has_paren ? tok->next->next : tok->next;
      if (tok->kind != TK_IDENT) error_tok(start, "macro name must be an identifier");
      Macro *m = find_macro(tok);
      tok = tok->next;
      if (has_paren) {
        if (!tok_equal(tok, ")")) error_tok(tok, "missing ')' after 'defined'");
        tok = tok->next;
      }
      Token *n = copy_token(start);
      n->kind = TK_NUM;
      n->ival = m ? 1 : 0;
      n->ty = ty_int;
      cur = cur->next = n;
      continue;
    }
    cur = cur->next = tok;
    tok = tok->next;
  }
  cur->next = tok;
  return head.next;
}

static int64_t eval_const_expr(Token **rest, Token *tok) {
  Token *start = tok;
  Token *expr = read_const_expr(rest, tok->next);
  expr = preprocess2(expr);
  if (expr->kind == TK_EOF) error_tok(start, "#%.*s with no expression", start->len, start->loc);
  for (Token *t = expr; t->kind != TK_EOF; t = t->next) {
    if (t->kind == TK_IDENT) {
      /* identifiers left after expansion are 0, as C says */
      Token *next = t->next;
      *t = *copy_token(t);
      t->kind = TK_NUM;
      t->ival = 0;
      t->ty = ty_int;
      t->next = next;
    }
  }
  convert_pp_tokens(expr);
  Token *rest2;
  CValue v = const_eval(&rest2, expr, true, NULL);
  if (rest2->kind != TK_EOF) error_tok(rest2, "extra token in #if expression");
  return v.is_float ? (int64_t)v.d : v.i;
}

/* ---- #pragma ---- */
static Token *read_pragma(Token **rest, Token *hash, Token *tok) {
  Token *line = copy_line(rest, tok);
  Token *p = copy_token(hash);
  p->kind = TK_PRAGMA;
  p->at_bol = true;
  /* the text of the line, for printing */
  p->str = join_tokens(line, NULL);
  if (line->kind == TK_IDENT && tok_equal(line, "carve")) {
    Token *exp = preprocess2(line->next);
    convert_pp_tokens(exp);
    p->pragma_toks = exp;
  }
  return p;
}

/* ---- builtins ---- */
static Token *file_macro(Token *tmpl) {
  while (tmpl->origin) tmpl = tmpl->origin;
  Token *t = tokenize_string("<built-in>", fmt("\"%s\"\n", tmpl->file->name));
  t->origin = tmpl;
  return t;
}
/* a number written here, not in the file: diagnostics go to the use (origin), and it names no
 * macro itself (a note would print its spelling as if it were in the file) */
static Token *number_at(Token *tmpl) {
  Token *t = copy_token(tmpl);
  t->origin = tmpl;
  t->macro = NULL;
  return t;
}
static Token *line_macro(Token *tmpl) {
  Token *o = tmpl;
  while (o->origin) o = o->origin;
  Token *t = number_at(tmpl);
  t->kind = TK_NUM;
  t->ival = o->line;
  t->ty = ty_int;
  t->loc = fmt("%d", o->line);
  t->len = (int)strlen(t->loc);
  return t;
}
static Token *counter_macro(Token *tmpl) {
  Token *t = number_at(tmpl);
  t->kind = TK_NUM;
  t->ival = pp.counter++;
  t->ty = ty_int;
  t->loc = fmt("%d", (int)t->ival);
  t->len = (int)strlen(t->loc);
  return t;
}

/* What kernels use from <math.h>, <float.h>, <limits.h>, <stdint.h>, <cuda_runtime.h>: such
 * headers are not read; these definitions stand in for them. */
static const char *prelude =
  "#define __CUDACC__ 1\n#define __NVCC__ 1\n#define __CUDA_ARCH__ 900\n#define __carve__ 1\n"
  "#define __CUDACC_VER_MAJOR__ 13\n#define __CUDACC_VER_MINOR__ 0\n"
  /* cuda_runtime_api.h's and cuda.h's versions, as nvcc 13.0's headers define them (samples test them) */
  "#define CUDART_VERSION 13000\n#define CUDA_VERSION 13000\n"
  "#define NULL 0\n#define nullptr 0\n"
  "#define FLT_MAX 3.40282347e+38F\n#define FLT_MIN 1.17549435e-38F\n#define FLT_EPSILON 1.19209290e-07F\n"
  "#define DBL_MAX 1.7976931348623157e+308\n#define DBL_MIN 2.2250738585072014e-308\n"
  "#define DBL_EPSILON 2.2204460492503131e-16\n"
  "#define INT_MAX 2147483647\n#define INT_MIN (-2147483647-1)\n#define UINT_MAX 4294967295U\n"
  "#define LLONG_MAX 9223372036854775807LL\n#define LLONG_MIN (-9223372036854775807LL-1)\n"
  "#define ULLONG_MAX 18446744073709551615ULL\n#define LONG_MAX 9223372036854775807L\n"
  "#define SHRT_MAX 32767\n#define CHAR_BIT 8\n#define UCHAR_MAX 255\n"
  "#define INT32_MAX 2147483647\n#define UINT32_MAX 4294967295U\n"
  "#define M_PI 3.14159265358979323846\n#define M_E 2.7182818284590452354\n"
  "#define M_SQRT2 1.41421356237309504880\n#define M_LN2 0.69314718055994530942\n"
  "#define M_PI_F 3.14159265358979323846f\n"
  "#define INFINITY __int_as_float(0x7f800000)\n#define NAN __int_as_float(0x7fffffff)\n"
  "#define HUGE_VALF __int_as_float(0x7f800000)\n#define HUGE_VAL __longlong_as_double(0x7ff0000000000000LL)\n"
  "#define CUDART_INF_F __int_as_float(0x7f800000)\n#define CUDART_PI_F 3.141592654f\n";

void *pp_state_save(void) {
  Macro **s = arena_alloc(sizeof pp.macros);
  memcpy(s, pp.macros, sizeof pp.macros);
  return s;
}

void pp_state_restore(const void *saved) {
  if (saved) memcpy(pp.macros, saved, sizeof pp.macros);
  else memset(pp.macros, 0, sizeof pp.macros);
}

static void define_macro_text(const char *name, const char *text) {
  Token *t = tokenize_string("<command line>", fmt("%s\n", text));
  add_macro(arena_strdup(name), true, t);
}

static void init_macros(void) {
  memset(pp.macros, 0, sizeof pp.macros);
  pp.cond_incl = NULL;
  pp.counter = 0;
  pp.n_once = 0;
  /* a load that failed half-way left the budget where it stopped */
  pp.expansion_depth = 0;
  pp.site = NULL;
  pp.made = 0;
  add_macro("__FILE__", true, NULL)->handler = file_macro;
  add_macro("__LINE__", true, NULL)->handler = line_macro;
  add_macro("__COUNTER__", true, NULL)->handler = counter_macro;
  Token *t = tokenize_string("<built-in>", prelude);
  preprocess2(t);
  for (int i = 0; i < pp.opts->n_defines; i++) {
    const char *d = pp.opts->defines[i];
    const char *eq = strchr(d, '=');
    if (eq) define_macro_text(arena_strndup(d, (size_t)(eq - d)), eq + 1);
    else define_macro_text(d, "1");
  }
}

/* The main loop: walk the token list, run directives, expand macros. */
static Token *preprocess2(Token *tok) {
  Token head = {0}, *cur = &head;
  while (tok->kind != TK_EOF) {
    if (expand_macro(&tok, tok)) continue;
    if (!is_hash(tok)) {
      cur = cur->next = tok;
      tok = tok->next;
      continue;
    }
    Token *start = tok;
    tok = tok->next;
    if (tok->at_bol) continue; /* null directive */
    if (tok_equal(tok, "include")) {
      Token *ft = tok->next;
      if (ft->kind == TK_STR) {
        char *name = arena_strndup(ft->loc + 1, (size_t)ft->len - 2);
        if (pp.opts->no_includes) error_tok(ft, "#include is disabled here");
        char *path = search_include(name, ft);
        /* as nvcc: a quoted name not found beside the file or in -I is looked for as a system
         * header (#include "cuda.h", "math.h"), which the prelude stands in for */
        if (!path && known_system_header(name)) {
          tok = skip_line(ft->next);
          continue;
        }
        if (!path) error_tok(ft, "'%s' file not found", name);
        tok = skip_line(ft->next);
        tok = include_file(tok, path, ft);
        continue;
      }
      if (tok_equal(ft, "<")) {
        tok = angle_include(ft);
        continue;
      }
      if (ft->kind == TK_IDENT && !ft->at_bol) {
        if (pp.opts->no_includes) error_tok(ft, "#include is disabled here");
        tok = computed_include(ft);
        continue;
      }
      error_tok(ft->at_bol ? tok : ft, "#include expects \"FILENAME\" or <FILENAME>");
    }
    if (tok_equal(tok, "define")) {
      read_macro_definition(&tok, tok->next);
      continue;
    }
    if (tok_equal(tok, "undef")) {
      tok = tok->next;
      if (tok->kind != TK_IDENT) error_tok(tok, "macro name must be an identifier");
      undef_macro(tok_text(tok));
      tok = skip_line(tok->next);
      continue;
    }
    if (tok_equal(tok, "if")) {
      int64_t v = eval_const_expr(&tok, tok);
      push_cond_incl(start, v != 0);
      if (!v) tok = skip_cond_incl(tok);
      continue;
    }
    if (tok_equal(tok, "ifdef") || tok_equal(tok, "ifndef")) {
      bool neg = tok_equal(tok, "ifndef");
      Token *n = tok->next;
      if (n->kind != TK_IDENT || n->at_bol) error_tok(tok, "macro name must be an identifier");
      bool defined = find_macro(n) != NULL;
      push_cond_incl(start, defined != neg);
      tok = skip_line(n->next);
      if (defined == neg) tok = skip_cond_incl(tok);
      continue;
    }
    if (tok_equal(tok, "elif")) {
      if (!pp.cond_incl) error_tok(tok, "#elif without #if");
      if (pp.cond_incl->ctx == IN_ELSE) error_tok(tok, "#elif after #else");
      pp.cond_incl->ctx = IN_ELIF;
      if (!pp.cond_incl->included && eval_const_expr(&tok, tok)) pp.cond_incl->included = true;
      else tok = skip_cond_incl(tok);
      continue;
    }
    if (tok_equal(tok, "else")) {
      if (!pp.cond_incl) error_tok(tok, "#else without #if");
      if (pp.cond_incl->ctx == IN_ELSE) error_tok(tok, "#else after #else");
      pp.cond_incl->ctx = IN_ELSE;
      tok = skip_line(tok->next);
      if (pp.cond_incl->included) tok = skip_cond_incl(tok);
      continue;
    }
    if (tok_equal(tok, "endif")) {
      if (!pp.cond_incl) error_tok(tok, "#endif without #if");
      pp.cond_incl = pp.cond_incl->next;
      tok = skip_line(tok->next);
      continue;
    }
    if (tok_equal(tok, "pragma")) {
      if (tok_equal(tok->next, "once")) {
        mark_once(tok->file->name);
        tok = skip_line(tok->next->next);
        continue;
      }
      cur = cur->next = read_pragma(&tok, start, tok->next);
      continue;
    }
    if (tok_equal(tok, "error")) {
      Token *line = copy_line(&tok, tok->next);
      error_tok(start->next, "#error %s", join_tokens(line, NULL));
    }
    if (tok_equal(tok, "warning")) {
      Token *line = copy_line(&tok, tok->next);
      warn_tok(start->next, "#warning %s", join_tokens(line, NULL));
      continue;
    }
    if (tok_equal(tok, "line") || tok->kind == TK_PP_NUM) {
      copy_line(&tok, tok);
      continue;
    }
    error_tok(tok, "invalid preprocessing directive '#%.*s'", tok->len, tok->loc);
  }
  cur->next = tok;
  return head.next;
}

Token *preprocess(Token *tok, const PPOptions *opt) {
  static const PPOptions none;
  pp.opts = opt ? opt : &none;
  init_macros();
  /* the budget starts with the main file, as read */
  pp.made = 0; /* the prelude is free */
  for (Token *t = tok; t->kind != TK_EOF; t = t->next) made(t, 1);
  pp.bytes = (long long)strlen(tok->file->contents);
  check_limit(tok, pp.bytes, &limit_source_bytes);
  tok = preprocess2(tok);
  if (pp.cond_incl) error_tok(pp.cond_incl->tok->next, "unterminated conditional directive");
  convert_pp_tokens(tok);
  for (Token *t = tok, *p = NULL; t; p = t, t = t->next) t->prev = p;
  /* adjacent string literals */
  for (Token *t = tok; t->kind != TK_EOF; t = t->next) {
    while (t->kind == TK_STR && t->next->kind == TK_STR) {
      Token *u = t->next;
      char *s = arena_alloc((size_t)(t->ival + u->ival + 1));
      memcpy(s, t->str, (size_t)t->ival);
      memcpy(s + t->ival, u->str, (size_t)u->ival);
      t->str = s;
      t->ival += u->ival;
      t->ty = array_of(ty_char, (int)t->ival + 1);
      t->next = u->next;
    }
  }
  return tok;
}

struct MacroQuery {
  const char *name;
  int64_t *val;
  bool ok;
};
/* simpler and safer: expand a fresh use of the name */
static void macro_query(void *ud) {
  struct MacroQuery *c = ud;
  Token *t = tokenize_string("<query>", fmt("%s\n", c->name));
  t = preprocess2(t);
  convert_pp_tokens(t);
  Token *rest;
  CValue v = const_eval(&rest, t, false, NULL);
  if (rest->kind == TK_EOF) {
    *c->val = v.is_float ? (int64_t)v.d : v.i;
    c->ok = true;
  }
}

/* an expansion outside the file's own (a query during the parse, a flag after it) has a budget
 * of its own and leaves the file's as it was */
typedef struct {
  long long made;
  Token *site;
  int depth;
} PPBudget;
static PPBudget budget_enter(void) {
  PPBudget b = {pp.made, pp.site, pp.expansion_depth};
  pp.made = 0;
  pp.site = NULL;
  pp.expansion_depth = 0;
  return b;
}
static void budget_leave(PPBudget b) {
  pp.made = b.made;
  pp.site = b.site;
  pp.expansion_depth = b.depth;
}

bool pp_macro_value(const char *name, int64_t *val) {
  Macro *m = find_macro_n(name, (int)strlen(name));
  if (!m || !m->is_objlike || !m->body) return false;
  struct MacroQuery c = {name, val, false};
  bool q = diag_quiet;
  diag_quiet = true;
  PPBudget b = budget_enter();
  carve_pcall(macro_query, &c);
  budget_leave(b);
  diag_quiet = q;
  return c.ok;
}

Token *pp_expand(const char *origin, const char *text) {
  /* raised errors unwind past this: the budget is reset, not restored */
  budget_enter();
  Token *t = tokenize_string(origin, fmt("%s\n", text));
  t = preprocess2(t);
  convert_pp_tokens(t);
  return t;
}
