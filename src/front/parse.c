/* parse: tokens -> typed AST, recursive descent, one function per grammar rule (the rule is
 * written above it). Device code (kernels, __device__ functions, __constant__/__device__
 * variables, types) is parsed; host code beside it (main, cudaMalloc, <<<...>>> launches,
 * templates on the host) is recognized by its declaration and skipped. An error inside a
 * declaration drops that declaration only: the other kernels of the file still load. */
#include "parse_int.h"
#include "../hash.h"

ParseState ps; /* all of the parser's mutable state (parse_int.h) */

Node *new_node(NodeKind kind, Token *tok) {
  Node *n = arena_alloc(sizeof(Node));
  n->kind = kind;
  n->tok = tok;
  n->id = -1; /* program_finish numbers the nodes of the final tree */
  return n;
}
Node *new_binary(NodeKind k, Node *l, Node *r, Token *tok) {
  Node *n = new_node(k, tok);
  n->lhs = l;
  n->rhs = r;
  return n;
}
Node *new_unary(NodeKind k, Node *e, Token *tok) {
  Node *n = new_node(k, tok);
  n->lhs = e;
  return n;
}
Node *new_num(int64_t v, Token *tok) {
  Node *n = new_node(ND_NUM, tok);
  n->ival = v;
  n->ty = ty_int;
  return n;
}
Node *new_var(Obj *v, Token *tok) {
  Node *n = new_node(ND_VAR, tok);
  n->var = v;
  n->ty = v->ty;
  return n;
}

/* ---- nesting limits (limits_parse.h): a located error, never a stack overflow ---- */
void nest_enter(Token *tok, const char *what) {
  if (++ps.nest_depth > LIMIT_EXPR_NESTING)
    error_tok(tok, "%s nested too deeply " LIMIT_NOTE(LIMIT_EXPR_NESTING), what,
              LIMIT_EXPR_NESTING);
}
void nest_leave(void) { ps.nest_depth--; }

typedef struct {
  int depth;
  Node *over;
} DepthWalk;
static bool depth_pre(Node *n, void *ctx) {
  DepthWalk *d = ctx;
  if (d->over) return false;
  if (d->depth == LIMIT_EXPR_DEPTH) {
    d->over = n;
    return false;
  }
  d->depth++;
  return true;
}
static bool depth_post(Node *n, void *ctx) {
  (void)n;
  ((DepthWalk *)ctx)->depth--;
  return true;
}

/* A full expression's tree, checked once when it is complete: left-associative chains grow it
 * without recursion here, but every later stage recurses through it. */
static void check_expr_depth(Node *n) {
  DepthWalk d = {0, NULL};
  walk(n, depth_pre, depth_post, &d);
  if (d.over)
    error_tok(d.over->tok, "expression nested too deeply " LIMIT_NOTE(LIMIT_EXPR_DEPTH),
              LIMIT_EXPR_DEPTH);
}

/* expr, assign and conditional open and close through these; the outermost checks the depth */
void expr_open(void) { ps.expr_level++; }
Node *expr_close(Node *n) {
  if (--ps.expr_level == 0) check_expr_depth(n);
  return n;
}

/* an error just after token p (where a missing ';' or ')' belongs) */
static _Noreturn void error_after(Token *p, const char *msg) {
  SrcLoc l = tok_loc(p);
  if (!p->origin) {
    l.col += p->len;
    l.loc += p->len;
  }
  diag_at(DIAG_ERROR, l, "%s", msg);
  carve_throw();
}

Token *skip(Token *tok, const char *s) {
  if (!tok_equal(tok, s)) {
    bool closer = !strcmp(s, ";") || !strcmp(s, ")") || !strcmp(s, "]") || !strcmp(s, "}");
    if (closer && tok->prev && (tok->at_bol || tok->kind == TK_EOF) && tok->prev->kind != TK_PRAGMA)
      error_after(tok->prev, fmt("expected '%s'", s));
    if (tok->kind == TK_EOF) error_tok(tok, "expected '%s' at end of input", s);
    error_tok(tok, "expected '%s' before '%.*s'", s, tok->len, tok->loc);
  }
  return tok->next;
}
bool consume(Token **rest, Token *tok, const char *s) {
  if (tok_equal(tok, s)) {
    *rest = tok->next;
    return true;
  }
  *rest = tok;
  return false;
}
char *get_ident(Token *tok) {
  if (tok->kind != TK_IDENT)
    error_tok(tok, "expected an identifier before '%.*s'", tok->len, tok->loc);
  return tok_text(tok);
}

void enter_scope(void) {
  Scope *s = arena_alloc(sizeof(Scope));
  s->next = ps.scope;
  ps.scope = s;
}
void leave_scope(void) { ps.scope = ps.scope->next; }

/* File scope can hold thousands of names (large generated files): it is hashed. Block scopes
 * are short lists. */

static unsigned name_hash(const char *s, int len) {
  return fnv1a32(s, (size_t)len) % GLOBAL_BUCKETS;
}

VarScope *find_global_n(const char *name, int len) {
  for (VarScope *v = ps.global_table[name_hash(name, len)]; v; v = v->next)
    if ((int)strlen(v->name) == len && !memcmp(v->name, name, (size_t)len)) return v;
  return NULL;
}

/* ---- C++ namespaces (docs/cxx.md): a name declared in namespace a::b is kept at file scope
 * as "a::b::name"; the tokens "a :: b :: name" are one identifier (merge_qualified). Lookup
 * tries the enclosing namespaces innermost first, the name itself, then `using namespace`. */

static VarScope *find_in_namespace(const char *ns, const char *name, int len) {
  char *q = fmt("%s::%.*s", ns, len, name);
  return find_global_n(q, (int)strlen(q));
}

/* "cg::x" with `namespace cg = cooperative_groups;`: "cooperative_groups::x" */
const char *resolve_alias(const char *name, int *len) {
  for (int i = 0; i < ps.n_ns_aliases; i++) {
    int n = (int)strlen(ps.ns_aliases[i].alias);
    if (*len > n + 2 && !strncmp(name, ps.ns_aliases[i].alias, (size_t)n) &&
        !strncmp(name + n, "::", 2)) {
      char *r = fmt("%s%.*s", ps.ns_aliases[i].target, *len - n, name + n);
      *len = (int)strlen(r);
      return r;
    }
  }
  return name;
}

static VarScope *find_qualified(const char *name, int len) {
  if (len > 2 && !strncmp(name, "::", 2)) return find_global_n(name + 2, len - 2);
  name = resolve_alias(name, &len);
  for (char *ns = ps.cur_ns ? arena_strdup(ps.cur_ns) : NULL; ns;) {
    VarScope *v = find_in_namespace(ns, name, len);
    if (v) return v;
    char *cut = NULL;
    for (char *c = ns; (c = strstr(c, "::")); c += 2) cut = c;
    if (!cut) break;
    *cut = 0;
  }
  VarScope *v = find_global_n(name, len);
  for (int i = ps.n_using - 1; !v && i >= 0; i--) v = find_in_namespace(ps.using_ns[i], name, len);
  return v;
}

/* the name a file-scope declaration gets inside the current namespace */
char *ns_qualify(char *name) {
  if (!strncmp(name, "::", 2)) return name + 2;
  if (strstr(name, "::")) {
    VarScope *v = find_qualified(name, (int)strlen(name));
    if (v && v->var) return v->var->name;
  }
  return ps.cur_ns ? fmt("%s::%s", ps.cur_ns, name) : name;
}

VarScope *find_var_n(const char *name, int len) {
  for (Scope *s = ps.scope; s && s->next; s = s->next)
    for (VarScope *v = s->vars; v; v = v->next)
      if ((int)strlen(v->name) == len && !memcmp(v->name, name, (size_t)len)) return v;
  if (ps.cur_ns || ps.n_using || memchr(name, ':', (size_t)len)) return find_qualified(name, len);
  return find_global_n(name, len);
}
VarScope *find_var(Token *tok) { return find_var_n(tok->loc, tok->len); }
/* the function template `name <...>` names: C++ lets a template share its name with a function
 * (threadFenceReduction's extern "C" reduceSinglePass beside the kernel template of that name) */
VarScope *find_template(Token *tok) {
  VarScope *v = find_var(tok);
  if (!v || v->tmpl || !tok_equal(tok->next, "<")) return v;
  for (VarScope *w = ps.global_table[name_hash(tok->loc, tok->len)]; w; w = w->next)
    if (w->tmpl && (int)strlen(w->name) == tok->len && !memcmp(w->name, tok->loc, (size_t)tok->len))
      return w;
  return v;
}
Type *find_tag(Token *tok) {
  for (Scope *s = ps.scope; s; s = s->next)
    for (TagScope *t = s->tags; t; t = t->next)
      if (tok_equal(tok, t->name)) return t->ty;
  return NULL;
}
VarScope *push_global(char *name) {
  VarScope *v = arena_alloc(sizeof(VarScope));
  v->name = name;
  unsigned h = name_hash(name, (int)strlen(name));
  v->next = ps.global_table[h];
  ps.global_table[h] = v;
  return v;
}

VarScope *push_scope(char *name) {
  if (!ps.scope->next) return push_global(name);
  VarScope *v = arena_alloc(sizeof(VarScope));
  v->name = name;
  v->next = ps.scope->vars;
  ps.scope->vars = v;
  return v;
}

void push_tag(Token *tok, Type *ty) {
  TagScope *t = arena_alloc(sizeof(TagScope));
  t->name = tok_text(tok);
  t->ty = ty;
  t->next = ps.scope->tags;
  ps.scope->tags = t;
  /* C++: a struct's tag is a type name ("Point p;") */
  if (ty->kind == TY_STRUCT)
    push_scope(ps.scope->next ? t->name : ns_qualify(t->name))->type_def = ty;
}
VarScope *find_in_current(Token *tok) {
  if (!ps.scope->next) {
    for (VarScope *v = ps.global_table[name_hash(tok->loc, tok->len)]; v; v = v->next)
      if (tok_equal(tok, v->name)) return v;
    return NULL;
  }
  for (VarScope *v = ps.scope->vars; v; v = v->next)
    if (tok_equal(tok, v->name)) return v;
  return NULL;
}

Type *find_typedef(Token *tok) {
  if (tok->kind != TK_IDENT) return NULL;
  VarScope *v = find_var(tok);
  if (v) return v->type_def;
  Type *b = builtin_typedef(tok->loc, tok->len);
  if (b) return b;
  char last = tok->loc[tok->len - 1];
  if (last < '1' || last > '4') return NULL;
  return vector_type(tok_text(tok));
}

Obj *new_obj(char *name, Type *ty, Token *tok, StorageClass sc) {
  Obj *o = arena_alloc(sizeof(Obj));
  o->name = name;
  o->ty = ty;
  o->tok = tok;
  o->sc = sc;
  o->slot = -1;
  return o;
}

Obj *new_local(char *name, Type *ty, Token *tok, StorageClass sc) {
  VarScope *prev = find_in_current(tok);
  if (prev && prev->var) error_tok(tok, "redefinition of '%s'", name);
  Obj *o = new_obj(name, ty, tok, sc);
  if (sc == SC_LOCAL || sc == SC_PARAM) {
    /* chain into the function's list of locals (layout.c rebuilds it, with slots and offsets) */
    Obj **pp = &ps.cur_fn->locals;
    while (*pp) pp = &(*pp)->next_local;
    *pp = o;
  }
  push_scope(name)->var = o;
  return o;
}

/* type definitions that did not parse (they looked like host code); reported if device code uses them */

void report_failed_type(Token *use) {
  if (use->kind != TK_IDENT) return;
  for (int i = 0; i < ps.n_failed_types; i++)
    if (tok_equal(use, ps.failed_types[i].name)) {
      diag_at(DIAG_ERROR, ps.failed_types[i].loc, "%s", ps.failed_types[i].msg);
      note_tok(use, "'%s' is used here; its definition above could not be read",
               ps.failed_types[i].name);
      carve_throw();
    }
}

static void add_failed_type(Token *name) {
  ps.failed_types = xrealloc(ps.failed_types, sizeof(FailedType) * (size_t)(ps.n_failed_types + 1));
  FailedType *f = &ps.failed_types[ps.n_failed_types++];
  f->name = tok_text(name);
  snprintf(f->msg, sizeof f->msg, "%s", diag_last_msg);
  f->loc = diag_last_loc;
}

static void record_failed_type(Token *start) {
  /* the names a definition declares: its tag, and a typedef's name (the last identifier at depth 0) */
  int depth = 0;
  Token *last_ident = NULL;
  for (Token *t = start; t->kind != TK_EOF; t = t->next) {
    if ((tok_equal(t, "struct") || tok_equal(t, "union") || tok_equal(t, "class") ||
         tok_equal(t, "enum")) &&
        t->next->kind == TK_IDENT)
      add_failed_type(t->next);
    if (tok_equal(t, "{") || tok_equal(t, "(")) depth++;
    else if (tok_equal(t, "}") || tok_equal(t, ")")) depth--;
    else if (depth == 0 && t->kind == TK_IDENT) last_ident = t;
    else if (depth == 0 && tok_equal(t, ";")) break;
  }
  if (last_ident && tok_equal(start, "typedef")) add_failed_type(last_ident);
}

bool is_host_func(Token *tok) {
  for (int i = 0; i < ps.n_host_funcs; i++)
    if (tok_equal(tok, ps.host_funcs[i])) return true;
  return false;
}

/* ---------------- constant expressions over the AST ---------------- */
/* a constexpr function's parameters while its return expression is evaluated */

static bool eval_const_at(Node *n, int64_t *v, int depth);

/* constexpr int f(int x) { return E; } called with constant arguments: E with x bound */
static bool eval_const_call(Node *n, int64_t *v, int depth) {
  Obj *fn = n->fn;
  Node *body = fn->body ? fn->body->stmts : NULL;
  if (!fn->is_constexpr || !body || body->kind != ND_RETURN || !body->lhs ||
      !is_integer(fn->ty->return_ty))
    return false;
  int64_t vals[16];
  int k = 0, mark = ps.n_const_binds;
  for (Node *a = n->args; a; a = a->next, k++)
    if (k == 16 || !eval_const_at(a, &vals[k], depth + 1)) return false;
  if (ps.n_const_binds + k > 64) return false;
  k = 0;
  for (Obj *p = fn->params; p; p = p->next, k++)
    ps.const_binds[ps.n_const_binds++] = (ConstBind){p, vals[k]};
  bool ok = eval_const_at(body->lhs, v, depth + 1);
  ps.n_const_binds = mark;
  return ok;
}

/* the recursion is bounded like add_type's: trees the parser has not measured yet reach here */
static bool eval_const_at(Node *n, int64_t *v, int depth) {
  int64_t a = 0, b = 0;
  if (depth > LIMIT_EXPR_DEPTH) {
    if (ps.lax_const) return false;
    error_tok(n->tok, "expression nested too deeply " LIMIT_NOTE(LIMIT_EXPR_DEPTH),
              LIMIT_EXPR_DEPTH);
  }
  switch (n->kind) {
  case ND_CALL: return n->fn && eval_const_call(n, v, depth);
  case ND_NUM:
    if (is_flonum(n->ty)) {
      *v = (int64_t)n->fval;
      return true;
    }
    *v = n->ival;
    return true;
  case ND_SIZEOF: *v = n->ival; return true;
  case ND_VAR:
    for (int i = ps.n_const_binds - 1; i >= 0; i--)
      if (ps.const_binds[i].param == n->var) {
        *v = ps.const_binds[i].val;
        return true;
      }
    if (n->var->is_const_decl && n->var->init && is_integer(n->var->ty) &&
        n->var->init->kind != ND_INIT_LIST)
      return eval_const_at(n->var->init, v, depth + 1);
    return false;
  case ND_CAST:
    if (!eval_const_at(n->lhs, &a, depth + 1)) return false;
    if (is_integer(n->ty)) {
      switch (n->ty->size) {
      case 1: a = n->ty->is_unsigned ? (int64_t)(uint8_t)a : (int64_t)(int8_t)a; break;
      case 2: a = n->ty->is_unsigned ? (int64_t)(uint16_t)a : (int64_t)(int16_t)a; break;
      case 4: a = n->ty->is_unsigned ? (int64_t)(uint32_t)a : (int64_t)(int32_t)a; break;
      }
      if (n->ty->kind == TY_BOOL) a = a != 0;
    }
    *v = a;
    return true;
  case ND_NEG:
    if (!eval_const_at(n->lhs, &a, depth + 1)) return false;
    *v = (int64_t)(0 - (uint64_t)a);
    return true;
  case ND_POS: return eval_const_at(n->lhs, v, depth + 1);
  case ND_NOT:
    if (!eval_const_at(n->lhs, &a, depth + 1)) return false;
    *v = !a;
    return true;
  case ND_BITNOT:
    if (!eval_const_at(n->lhs, &a, depth + 1)) return false;
    *v = ~a;
    return true;
  case ND_COND:
    if (!eval_const_at(n->cond, &a, depth + 1)) return false;
    return eval_const_at(a ? n->then : n->els, v, depth + 1);
  case ND_COMMA: return eval_const_at(n->rhs, v, depth + 1);
  default: break;
  }
  if (!n->lhs || !n->rhs) return false;
  if (!eval_const_at(n->lhs, &a, depth + 1) || !eval_const_at(n->rhs, &b, depth + 1)) return false;
  bool u = n->lhs->ty && n->lhs->ty->is_unsigned;
  switch (n->kind) {
  case ND_ADD: *v = (int64_t)((uint64_t)a + (uint64_t)b); break;
  case ND_SUB: *v = (int64_t)((uint64_t)a - (uint64_t)b); break;
  case ND_MUL: *v = (int64_t)((uint64_t)a * (uint64_t)b); break;
  case ND_DIV:
  case ND_MOD:
    if (b == 0) {
      if (ps.lax_const) return false;
      error_tok(n->tok, "division by zero in constant expression");
    }
    if (u)
      *v = n->kind == ND_DIV ? (int64_t)((uint64_t)a / (uint64_t)b)
                             : (int64_t)((uint64_t)a % (uint64_t)b);
    else if (a == INT64_MIN && b == -1) *v = n->kind == ND_DIV ? a : 0;
    else *v = n->kind == ND_DIV ? a / b : a % b;
    break;
  case ND_BITAND: *v = a & b; break;
  case ND_BITOR: *v = a | b; break;
  case ND_BITXOR: *v = a ^ b; break;
  case ND_SHL: *v = (b < 0 || b >= 64) ? 0 : (int64_t)((uint64_t)a << b); break;
  case ND_SHR: *v = (b < 0 || b >= 64) ? 0 : (u ? (int64_t)((uint64_t)a >> b) : a >> b); break;
  case ND_EQ: *v = a == b; break;
  case ND_NE: *v = a != b; break;
  case ND_LT: *v = u ? (uint64_t)a < (uint64_t)b : a < b; break;
  case ND_LE: *v = u ? (uint64_t)a <= (uint64_t)b : a <= b; break;
  case ND_GT: *v = u ? (uint64_t)a > (uint64_t)b : a > b; break;
  case ND_GE: *v = u ? (uint64_t)a >= (uint64_t)b : a >= b; break;
  case ND_LOGAND: *v = a && b; break;
  case ND_LOGOR: *v = a || b; break;
  default: return false;
  }
  if (n->ty && is_integer(n->ty) && n->ty->size == 4)
    *v = n->ty->is_unsigned ? (int64_t)(uint32_t)*v : (int64_t)(int32_t)*v;
  return true;
}

bool eval_const(Node *n, int64_t *v) { return eval_const_at(n, v, 0); }

bool node_int_constant(Node *n, int64_t *v) {
  if (!n || (n->ty && is_flonum(n->ty))) return false;
  ps.lax_const = true;
  bool ok = eval_const(n, v);
  ps.lax_const = false;
  return ok;
}

int64_t const_expr(Token **rest, Token *tok) {
  Node *n = conditional(rest, tok);
  add_type(n);
  int64_t v;
  if (!eval_const(n, &v)) error_tok(tok, "expression is not an integer constant");
  return v;
}

/* ---------------- C++ names ---------------- */
/* "a :: b :: c" (and "::c") become one identifier token spelled "a::b::c", located at its
 * first token (a copy kept as its origin): every lookup then sees a qualified name whole */
static void merge_qualified(Token *tok) {
  Token *prev = NULL;
  for (Token *t = tok; t && t->kind != TK_EOF; prev = t, t = t->next) {
    if (t->kind == TK_PRAGMA && t->pragma_toks) merge_qualified(t->pragma_toks);
    bool lead = tok_equal(t, "::") && t->next->kind == TK_IDENT &&
                !(prev && (prev->kind == TK_IDENT || tok_equal(prev, ">")));
    bool ident = t->kind == TK_IDENT && tok_equal(t->next, "::") && t->next->next->kind == TK_IDENT;
    if (!lead && !ident) continue;
    Buf b = {0};
    Token *last = t;
    if (lead) {
      buf_puts(&b, "::");
      last = t->next;
    }
    buf_printf(&b, "%.*s", last->len, last->loc);
    while (tok_equal(last->next, "::") && last->next->next->kind == TK_IDENT) {
      last = last->next->next;
      buf_printf(&b, "::%.*s", last->len, last->loc);
    }
    Token *orig = arena_alloc(sizeof(Token));
    *orig = *t;
    t->origin = orig;
    t->macro = NULL;
    t->kind = TK_IDENT;
    t->loc = arena_strdup(b.s);
    t->len = (int)b.len;
    t->next = last->next;
    if (t->next) t->next->prev = t;
    buf_free(&b);
  }
}

/* namespace N { | namespace { | namespace A = B; | using namespace N; | using N::x;
 * returns the token after it; *opened tells the caller a namespace body begins */
static Token *namespace_directive(Token *tok, bool *opened) {
  Token *start = tok;
  *opened = false;
  if (tok_equal(tok, "namespace")) {
    tok = tok->next;
    if (tok->kind == TK_IDENT && tok_equal(tok->next, "=")) {
      if (tok->next->next->kind != TK_IDENT)
        error_tok(tok->next->next, "expected a namespace name");
      ps.ns_aliases = xrealloc(ps.ns_aliases, sizeof(NsAlias) * (size_t)(ps.n_ns_aliases + 1));
      Token *target = tok->next->next;
      int len = target->len;
      const char *t = resolve_alias(target->loc, &len);
      ps.ns_aliases[ps.n_ns_aliases++] = (NsAlias){tok_text(tok), arena_strndup(t, (size_t)len)};
      tok = skip(target->next, ";");
      add_item(TOP_RAW, NULL, NULL, NULL, start);
      ps.last_item->end = tok;
      return tok;
    }
    char *name = NULL;
    if (tok->kind == TK_IDENT) {
      name = tok_text(tok);
      tok = tok->next;
    }
    if (!tok_equal(tok, "{")) error_tok(tok, "expected '{' after the namespace name");
    if (name) ps.cur_ns = ps.cur_ns ? fmt("%s::%s", ps.cur_ns, name) : name;
    *opened = true;
    return tok->next;
  }
  tok = tok->next; /* using */
  if (tok->kind == TK_IDENT && tok_equal(tok->next, "=")) {
    /* using NAME = TYPE; is a typedef */
    Token *name = tok;
    Type *ty = typename_(&tok, tok->next->next);
    Type *t = copy_type(ty);
    t->typedef_name = ns_qualify(tok_text(name));
    push_scope((char *)t->typedef_name)->type_def = t;
    add_item(TOP_TYPEDEF, NULL, ty, t->typedef_name, start);
    return skip(tok, ";");
  }
  if (tok_equal(tok, "namespace")) {
    Token *n = tok->next;
    if (n->kind != TK_IDENT) error_tok(n, "expected a namespace name");
    int len = n->len;
    const char *t = resolve_alias(n->loc, &len);
    ps.using_ns = xrealloc(ps.using_ns, sizeof(char *) * (size_t)(ps.n_using + 1));
    ps.using_ns[ps.n_using++] = arena_strndup(t, (size_t)len);
    tok = skip(n->next, ";");
  } else {
    /* using N::x; : x names what N::x names */
    if (tok->kind != TK_IDENT || !memchr(tok->loc, ':', (size_t)tok->len))
      error_tok(tok, "unsupported C++: this 'using' declaration");
    VarScope *v = find_var(tok);
    const char *last = tok->loc + tok->len;
    while (last > tok->loc && last[-1] != ':') last--;
    if (!v) error_tok(tok, "no declaration of '%.*s' to use", tok->len, tok->loc);
    VarScope *u = push_global(arena_strndup(last, (size_t)(tok->loc + tok->len - last)));
    u->var = v->var;
    u->type_def = v->type_def;
    u->enum_ty = v->enum_ty;
    u->enum_val = v->enum_val;
    tok = skip(tok->next, ";");
  }
  add_item(TOP_RAW, NULL, NULL, NULL, start);
  ps.last_item->end = tok;
  return tok;
}

/* ---------------- top level ---------------- */
void add_item(TopKind k, Obj *o, Type *ty, const char *name, Token *tok) {
  /* host code is not printed (carve print shows the device code): its functions are not items */
  if (ps.in_prelude || (k == TOP_FUNC && o && o->is_host && !o->is_device)) return;
  TopItem *it = arena_alloc(sizeof(TopItem));
  it->kind = k;
  it->obj = o;
  it->ty = ty;
  it->name = name;
  it->tok = tok;
  it->ns = ps.cur_ns;
  if (ps.last_item) ps.last_item->next = it;
  else ps.prog->items = it;
  ps.last_item = it;
}

Obj *find_func(const char *name) {
  VarScope *v = find_var_n(name, (int)strlen(name));
  while (v && !(v->var && v->var->sc == SC_FUNC)) v = NULL;
  return v ? v->var : NULL;
}

/* function = declspec declarator ("{" compound-stmt | ";") */
void function(Token **rest, Token *tok, Type *ty, VarAttr *attr) {
  Token *name = ty->name;
  if (!name) error_tok(tok, "function name omitted");
  char *fname = ns_qualify(tok_text(name));
  if (ty->return_ty->is_ref || has_auto(ty->return_ty))
    error_tok(name, "unsupported C++: %s return type",
              ty->return_ty->is_ref ? "a reference" : "an 'auto'");
  if (attr->global && ty->return_ty->kind != TY_VOID)
    error_tok(name, "__global__ function '%s' must have a void return type", fname);
  if (attr->shared || attr->constant)
    error_tok(attr->cuda_tok, "'%.*s' cannot be applied to a function", attr->cuda_tok->len,
              attr->cuda_tok->loc);
  if (attr->global && attr->device)
    error_tok(attr->cuda_tok, "a function cannot be both __global__ and __device__");
  Obj *prev = find_func(fname);
  Obj *fn = prev;
  if (!fn) {
    fn = new_obj(fname, ty, name, SC_FUNC);
    *ps.funcs_tail = fn;
    ps.funcs_tail = &fn->next;
    /* functions live in the global scope (so recursion and later calls see them) */
    push_global(fname)->var = fn;
  } else if (prev->is_definition && tok_equal(tok, "{")) {
    error_tok(name, "redefinition of '%s'", fname);
  }
  fn->ty = ty;
  fn->tok = name;
  fn->def_start = ps.decl_start;
  fn->is_kernel = attr->global;
  fn->is_device = attr->device || (!attr->global && !attr->host);
  fn->is_host = attr->host;
  fn->is_inline = attr->is_inline;
  fn->is_constexpr = attr->is_constexpr;
  if (fn->is_constexpr)
    ty->return_ty = unqual(ty->return_ty); /* constexpr's const is the function's */
  fn->is_forceinline = attr->forceinline;
  fn->launch_bounds[0] = attr->launch_bounds[0];
  fn->launch_bounds[1] = attr->launch_bounds[1];
  /* a member is printed inside its class template, the device library not at all */
  bool member = ps.cur_class != NULL || ps.in_device_lib;
  if (consume(rest, tok, ";")) {
    if (!member) add_item(TOP_FUNC, fn, NULL, NULL, name);
    return;
  }
  if (!tok_equal(tok, "{")) {
    if (tok->kind == TK_EOF && tok->prev)
      error_after(tok->prev, fmt("expected '{' or ';' after the declaration of '%s'", fname));
    error_tok(tok, "expected '{' or ';' after the declaration of '%s'", fname);
  }
  fn->is_definition = true;
  ps.cur_fn = fn;
  fn->locals = NULL;
  ps.loop_depth = ps.switch_depth = 0;
  ps.cur_switch = NULL;
  enter_scope();
  bool host = fn->is_host && !fn->is_device;
  for (Type *p = ty->params; p; p = p->next) {
    if (!p->name) error_tok(name, "parameter name omitted in the definition of '%s'", fname);
    vla_param_counts(p, host); /* among the parameters before p */
    new_local(tok_text(p->name), p, p->name, SC_PARAM);
  }
  /* params: the first locals, in order */
  fn->params = NULL;
  {
    Obj **pp = &fn->params;
    int np = 0;
    for (Type *p = ty->params; p; p = p->next) np++;
    Obj *l = fn->locals;
    for (int i = 0; i < np && l; i++, l = l->next_local) {
      *pp = l;
      pp = &l->next;
    }
    *pp = NULL;
  }
  if (host) vla_function_start(ty);
  ps.fn_body_pending = true;
  fn->body = compound_stmt(rest, tok->next);
  if (host) vla_function_end(fn->body);
  leave_scope();
  if (!member) add_item(TOP_FUNC, fn, NULL, NULL, name);
  ps.cur_fn = NULL;
}

/* A file-scope initializer must be constant: literals (negated, cast), and integer constant
 * expressions, which are folded here so the launch can lay them out. */
static void check_const_init(Node *n) {
  if (n->kind == ND_INIT_LIST) {
    for (Node *e = n->elems; e; e = e->next) check_const_init(e);
    return;
  }
  Node *e = n;
  while (e->kind == ND_CAST || e->kind == ND_NEG || e->kind == ND_POS) e = e->lhs;
  if (e->kind == ND_NUM) return;
  int64_t v;
  if (is_integer(n->ty) && eval_const(n, &v)) {
    Node *next = n->next;
    Type *ty = n->ty;
    memset(n, 0, sizeof *n); /* printed as the folded value: the tokens said something else */
    n->kind = ND_NUM;
    n->ival = v;
    n->ty = ty;
    n->next = next;
    return;
  }
  error_tok(
    n->tok,
    "initializer of a file-scope variable must be a constant (a literal or an integer constant expression)");
}

/* global-variable = declspec declarator ("=" initializer)? ("," ...)* ";" */
static void global_variable(Token **rest, Token *tok, Type *base, VarAttr *attr, bool host_const) {
  bool first = true;
  while (!consume(&tok, tok, ";")) {
    if (!first) tok = skip(tok, ",");
    first = false;
    Type *ty = declarator(&tok, tok, base);
    if (!ty->name) error_tok(tok, "expected a variable name");
    if (ty->kind == TY_FUNC) error_tok(ty->name, "unexpected function declarator");
    if (ty->is_ref || has_auto(ty))
      error_tok(ty->name, "unsupported C++: %s at file scope",
                ty->is_ref ? "references" : "'auto' variables");
    StorageClass sc = attr->constant ? SC_CONSTANT
                      : attr->shared ? (attr->is_extern ? SC_EXTERN_SHARED : SC_SHARED)
                      : host_const   ? SC_CONSTANT
                      : attr->host   ? SC_HOST_GLOBAL
                                     : SC_DEVICE_GLOBAL;
    if (sc == SC_SHARED)
      error_tok(ty->name,
                "unsupported: __shared__ variables at file scope; declare them inside the kernel");
    if (sc == SC_EXTERN_SHARED) { /* the dynamic shared area, named at file scope */
      if (!(ty->kind == TY_ARRAY && ty->array_len < 0))
        error_tok(ty->name, "extern __shared__ variable must be an array of unspecified size");
      Obj *v = new_obj(ns_qualify(tok_text(ty->name)), ty, ty->name, sc);
      v->is_extern = true;
      v->align = attr->align;
      push_scope(v->name)->var = v;
      Obj **pp = &ps.prog->globals;
      while (*pp) pp = &(*pp)->next;
      *pp = v;
      add_item(TOP_VAR, v, NULL, NULL, ty->name);
      continue;
    }
    Obj *v = new_obj(ns_qualify(tok_text(ty->name)), ty, ty->name, sc);
    v->align = attr->align;
    v->is_const_decl = attr->is_const || host_const;
    v->host_const = host_const && !attr->constant;
    v->is_extern = attr->is_extern;
    v->is_static = attr->is_static;
    if (consume(&tok, tok, "=")) {
      v->init = initializer(&tok, tok, ty);
      check_const_init(v->init);
      if (ty->kind == TY_ARRAY && ty->array_len < 0) {
        v->ty = array_of(ty->base, (int)v->init->ival);
        v->ty->name = ty->name;
      }
    } else if (host_const) {
      error_tok(ty->name, "const variable '%s' needs an initializer", v->name);
    }
    if (v->ty->kind == TY_VOID || v->ty->size < 0 ||
        (v->ty->kind == TY_ARRAY && v->ty->array_len < 0))
      error_tok(ty->name, "variable '%s' has incomplete type", v->name);
    int *area = sc == SC_CONSTANT      ? &ps.prog->constant_size
                : sc == SC_HOST_GLOBAL ? &ps.prog->host_global_size
                                       : &ps.prog->device_global_size;
    int a = v->ty->align < 16 ? 16 : v->ty->align;
    if (a < v->align) a = v->align;
    v->offset = (*area + a - 1) / a * a;
    *area = v->offset + v->ty->size;
    if (sc == SC_CONSTANT && !host_const && ps.prog->constant_size > 65536)
      error_tok(ty->name, "__constant__ memory exceeds 64 KiB");
    push_scope(v->name)->var = v;
    if (sc == SC_HOST_GLOBAL) {
      v->next = ps.prog->host_globals;
      ps.prog->host_globals = v;
      continue;
    }
    Obj **pp = &ps.prog->globals;
    while (*pp) pp = &(*pp)->next;
    *pp = v;
    add_item(TOP_VAR, v, NULL, NULL, ty->name);
  }
  *rest = tok;
}

/* Skip one top-level declaration without parsing it: up to a ';' at depth 0, or past the
 * balanced "{...}" of a function body or namespace. */
Token *skip_declaration(Token *tok) {
  int depth = 0;
  for (; tok->kind != TK_EOF; tok = tok->next) {
    if (tok->kind == TK_PRAGMA && depth == 0) return tok;
    if (tok_equal(tok, "(") || tok_equal(tok, "[") || tok_equal(tok, "{")) depth++;
    else if (tok_equal(tok, ")") || tok_equal(tok, "]")) depth--;
    else if (tok_equal(tok, "}")) {
      depth--;
      if (depth <= 0) {
        tok = tok->next;
        /* "struct {...} x;" / "class X {...};": include the declarators */
        if (tok_equal(tok, ";")) return tok->next;
        Token *t = tok;
        int d2 = 0;
        for (; t->kind != TK_EOF; t = t->next) {
          if (tok_equal(t, "(") || tok_equal(t, "[")) d2++;
          else if (tok_equal(t, ")") || tok_equal(t, "]")) d2--;
          else if (d2 == 0 && (tok_equal(t, "{") || t->at_bol)) break;
          else if (d2 == 0 && tok_equal(t, ";")) return t->next;
        }
        return tok;
      }
    } else if (tok_equal(tok, ";") && depth <= 0) return tok->next;
  }
  return tok;
}

/* what the declaration at tok is: device code (parsed with errors), host code (skipped),
 * a type definition (parsed, quietly skipped if it is not C), or a C++ template */
typedef enum {
  DECL_DEVICE,
  DECL_HOST,
  DECL_TYPE,
  DECL_TEMPLATE,
  DECL_NAMESPACE,
  DECL_CONST
} DeclClass;

static DeclClass classify(Token *tok, bool *has_device) {
  *has_device = false;
  if (tok_equal(tok, "template")) {
    int depth = 0;
    for (Token *t = tok; t->kind != TK_EOF; t = t->next) {
      if (tok_equal(t, "__global__") || tok_equal(t, "__device__")) *has_device = true;
      if (tok_equal(t, "{")) depth++;
      if (tok_equal(t, "}") && --depth == 0) break;
      if (tok_equal(t, ";") && depth == 0) break;
    }
    return DECL_TEMPLATE;
  }
  if (tok_equal(tok, "namespace") || tok_equal(tok, "using")) {
    int depth = 0;
    for (Token *t = tok; t->kind != TK_EOF; t = t->next) {
      if (tok_equal(t, "__global__") || tok_equal(t, "__device__")) *has_device = true;
      if (tok_equal(t, "{")) depth++;
      if (tok_equal(t, "}") && --depth == 0) break;
      if (tok_equal(t, ";") && depth == 0) break;
    }
    return DECL_NAMESPACE;
  }
  bool is_const = false, is_type = false;
  for (Token *t = tok; t->kind != TK_EOF; t = t->next) {
    if (tok_equal(t, "__global__") || tok_equal(t, "__device__") || tok_equal(t, "__constant__") ||
        tok_equal(t, "__shared__")) {
      *has_device = true;
      return DECL_DEVICE;
    }
    if (tok_equal(t, "typedef") || tok_equal(t, "struct") || tok_equal(t, "enum") ||
        tok_equal(t, "union") || tok_equal(t, "class"))
      is_type = true;
    if (tok_equal(t, "const") || tok_equal(t, "constexpr")) is_const = true;
    if (tok_equal(t, "(") || tok_equal(t, ";") || tok_equal(t, "=") || tok_equal(t, "{")) {
      if (is_type) return DECL_TYPE;
      if (is_const && !tok_equal(t, "(")) return DECL_CONST;
      return DECL_HOST;
    }
  }
  return DECL_HOST;
}

/* whether the host declaration at tok is a function (its declarator's "(" comes before any
 * "=", ";" or "{" at depth 0): only such a declaration's failure is skipped quietly */
static bool is_host_function(Token *tok) {
  for (Token *t = tok; t->kind != TK_EOF; t = t->next) {
    if (tok_equal(t, "(")) return true;
    if (tok_equal(t, "=") || tok_equal(t, ";") || tok_equal(t, "{")) return false;
  }
  return false;
}

/* whether a host variable's error is carve not knowing what nvcc would (a type from a system
 * header carve does not read, a C++ template, a dynamic initializer, which C++ allows at file
 * scope): skipped quietly, the variable unknown to carve. Any other error (a syntax error) is
 * reported: a broken declaration before a kernel must not pass for host code. */
static bool host_var_unsupported(const char *msg) {
  static const char *const kinds[] = {"unknown type name",
                                      "expected a type before",
                                      "use of undeclared identifier",
                                      "initializer of a file-scope variable must be a constant",
                                      "no member named",
                                      "unsupported C++"};
  for (size_t i = 0; i < sizeof kinds / sizeof *kinds; i++)
    if (!strncmp(msg, kinds[i], strlen(kinds[i]))) return true;
  return false;
}

/* whether a declaration begins with a name that is no type carve knows, used as one
 * ("cudaArray *a;", "extern \"C\" cudaTextureObject_t t;"): a type of a header carve does not read */
static bool unknown_type_first(Token *tok) {
  while (tok_equal(tok, "static") || tok_equal(tok, "extern") || tok_equal(tok, "const") ||
         tok_equal(tok, "constexpr") || tok_equal(tok, "volatile") || tok_equal(tok, "inline") ||
         tok->kind == TK_STR)
    tok = tok->next;
  if (tok->kind != TK_IDENT || is_typename(tok)) return false;
  Token *n = tok->next;
  return n->kind == TK_IDENT || tok_equal(n, "*") || tok_equal(n, "&") || tok_equal(n, "<") ||
         tok_equal(n, "::");
}

/* recovery after a host variable that did not parse: to its ';', but never past the start of
 * a line that begins device code ("int x = 1" missing its ';' must not swallow the kernel) */
static Token *skip_host_var(Token *tok) {
  int depth = 0;
  for (Token *t = tok; t->kind != TK_EOF; t = t->next) {
    if (t != tok && t->at_bol && depth <= 0 &&
        (tok_equal(t, "__global__") || tok_equal(t, "__device__") || tok_equal(t, "__host__") ||
         tok_equal(t, "template") || t->kind == TK_PRAGMA))
      return t;
    if (tok_equal(t, "(") || tok_equal(t, "[") || tok_equal(t, "{")) depth++;
    else if (tok_equal(t, ")") || tok_equal(t, "]") || tok_equal(t, "}")) depth--;
    else if (tok_equal(t, ";") && depth <= 0) return t->next;
  }
  return skip_declaration(tok);
}

/* a host function that did not parse: its name (for "calling a __host__ function" in device
 * code) and its first error, kept in the Program for when the host program is run */
static void record_host_func(Token *tok) {
  /* the identifier just before the first "(" names the function */
  Token *prev = NULL;
  for (Token *t = tok; t->kind != TK_EOF && !tok_equal(t, ";") && !tok_equal(t, "{");
       prev = t, t = t->next)
    if (tok_equal(t, "(")) {
      if (prev && prev->kind == TK_IDENT) {
        ps.host_funcs = xrealloc(ps.host_funcs, sizeof(char *) * (size_t)(ps.n_host_funcs + 1));
        ps.host_funcs[ps.n_host_funcs++] = tok_text(prev);
        HostSkip *h = arena_alloc(sizeof(HostSkip));
        h->name = tok_text(prev);
        h->loc = diag_last_loc;
        h->msg = arena_strdup(diag_last_msg);
        h->next = ps.prog->host_skipped;
        ps.prog->host_skipped = h;
      }
      return;
    }
}

/* a __device__ function whose definition did not parse: its Obj (declared, no body) keeps the
 * error, so that a call that reaches it faults naming the cause, not "declared but never defined"
 * (warpAggregatedAtomicsCG's atomicAggInc, whose body uses coalesced_group) */
static void record_device_failure(Token *tok) {
  Token *prev = NULL;
  for (Token *t = tok; t->kind != TK_EOF && !tok_equal(t, ";") && !tok_equal(t, "{");
       prev = t, t = t->next)
    if (tok_equal(t, "(")) {
      Obj *f = prev && prev->kind == TK_IDENT ? find_func(ns_qualify(tok_text(prev))) : NULL;
      if (f && !f->body) {
        SrcLoc l = diag_last_loc;
        f->unread = l.file ? fmt("%s:%d:%d: %s", l.file->name, l.line, l.col, diag_last_msg)
                           : arena_strdup(diag_last_msg);
      }
      return;
    }
}

/* one declaration at file scope */
void toplevel(Token **rest, Token *tok, bool host_const) {
  VarAttr attr = {0};
  Token *start = tok;
  ps.decl_start = tok;
  Type *base = declspec(&tok, tok, &attr);
  if (attr.is_typedef) {
    bool first = true;
    while (!consume(&tok, tok, ";")) {
      if (!first) tok = skip(tok, ",");
      first = false;
      Type *ty = declarator(&tok, tok, base);
      if (!ty->name) error_tok(tok, "typedef name omitted");
      Type *t = copy_type(ty);
      t->typedef_name = ns_qualify(tok_text(ty->name));
      push_scope((char *)t->typedef_name)->type_def = t;
      add_item(TOP_TYPEDEF, NULL, ty, t->typedef_name, start);
    }
    *rest = tok;
    return;
  }
  if (tok_equal(tok, ";")) {
    if (base->kind == TY_STRUCT) add_item(TOP_STRUCT, NULL, base, NULL, start);
    else if (base->kind == TY_ENUM) add_item(TOP_ENUM, NULL, base, NULL, start);
    if (ps.last_item && (ps.last_item->kind == TOP_STRUCT || ps.last_item->kind == TOP_ENUM))
      ps.last_item->end = tok;
    *rest = tok->next;
    return;
  }
  Token *probe = tok;
  ps.vla_host_decl = !attr.global && !attr.device; /* a host function's parameters may be VLAs */
  Type *ty = declarator(&probe, tok, base);
  ps.vla_host_decl = false;
  if (ty->kind == TY_FUNC) {
    /* a function without __global__ or __device__ is host code, parsed as C */
    if (!attr.global && !attr.device) attr.host = true;
    function(rest, probe, ty, &attr);
    if (ps.in_prelude) {
      Obj *f = find_func(tok_text(ty->name));
      f->is_host_lib = true;
    }
    return;
  }
  if (!attr.constant && !attr.device && !attr.shared && !host_const) attr.host = true;
  global_variable(rest, tok, base, &attr, host_const);
}

typedef struct {
  Token *tok;
  bool opened;
  char *saved;
} NsCall;
static void namespace_call(void *ud) {
  NsCall *c = ud;
  c->tok = namespace_directive(c->tok, &c->opened);
}

/* one top-level declaration, as a protected call: an error drops this declaration only */
static void toplevel_call(void *ud) {
  TopCall *c = ud;
  toplevel(&c->tok, c->tok, c->host_const);
}

Program *parse(Token *tok) {
  memset(&ps, 0, sizeof ps); /* a parse starts from nothing (parse_int.h) */
  ps.prog = arena_alloc(sizeof(Program));
  ps.scope = arena_alloc(sizeof(Scope));
  ps.funcs_tail = &ps.prog->funcs;
  ps.stack_base = (uintptr_t)__builtin_frame_address(0);
  merge_qualified(tok);
  define_cg_types();
  vla_reset();
  host_prelude();
  int extern_c_depth = 0;
  /* what each open '{' at file scope was: 'e' extern "C", 'n' a namespace (with the
   * namespace it was opened in) */
  char open_kind[64];
  char *open_ns[64];
  int nopen = 0;
  while (tok->kind != TK_EOF) {
    vla_decl_reset();
    /* as clang's -ferror-limit: past this many errors the rest of the file is not read (one
     * stray token repeated 10^4 times must not give 10^4 diagnostics) */
    if (ps.prog->errors >= LIMIT_ERRORS) {
      diag_at(
        DIAG_ERROR, tok_loc(tok),
        "too many errors (%d): the rest of the file is not read (LIMIT_ERRORS, docs/limits.md)",
        LIMIT_ERRORS);
      ps.prog->errors++;
      break;
    }
    if (tok->kind == TK_PRAGMA) {
      add_item(TOP_PRAGMA, NULL, NULL, NULL, tok);
      tok = tok->next;
      continue;
    }
    if (tok_equal(tok, ";")) {
      tok = tok->next;
      continue;
    }
    if (tok_equal(tok, "extern") && tok->next->kind == TK_STR && tok_equal(tok->next->next, "{")) {
      extern_c_depth++;
      if (nopen < 64) open_kind[nopen++] = 'e';
      tok = tok->next->next->next;
      continue;
    }
    if ((tok_equal(tok, "namespace") || tok_equal(tok, "using")) && nopen < 64) {
      NsCall nc = {tok, false, ps.cur_ns};
      if (!carve_pcall(namespace_call, &nc)) {
        ps.prog->errors++;
        ps.cur_ns = nc.saved;
        tok = skip_declaration(tok);
        continue;
      }
      if (nc.opened) {
        open_kind[nopen] = 'n';
        open_ns[nopen++] = nc.saved;
      }
      tok = nc.tok;
      continue;
    }
    if (tok_equal(tok, "}") && nopen && open_kind[nopen - 1] == 'n') {
      ps.cur_ns = open_ns[--nopen];
      tok = tok->next;
      continue;
    }
    if (tok_equal(tok, "}") && extern_c_depth) {
      extern_c_depth--;
      if (nopen) nopen--;
      tok = tok->next;
      continue;
    }
    if (tok_equal(tok, "}")) {
      diag_at(DIAG_ERROR, tok_loc(tok), "extraneous closing brace ('}')");
      ps.prog->errors++;
      tok = tok->next;
      continue;
    }
    if (is_constexpr_function(tok)) {
      TopCall cc = {tok, false};
      if (carve_pcall(constexpr_call, &cc)) tok = cc.tok;
      else {
        ps.prog->errors++;
        tok = skip_declaration(tok);
      }
      continue;
    }
    bool has_device;
    volatile DeclClass dc = classify(tok, &has_device);
    Token *volatile start = tok;
    if (tok_equal(tok, "template")) {
      TmplCall tc = {tok};
      if (carve_pcall(template_toplevel, &tc)) tok = tc.tok;
      else {
        ps.prog->errors++;
        tok = skip_declaration(tok);
        ps.prog->skipped_kernels += has_device;
      }
      continue;
    }
    if (dc == DECL_TEMPLATE || dc == DECL_NAMESPACE) {
      if (has_device) {
        diag_at(
          DIAG_ERROR, tok_loc(tok),
          "unsupported C++: %s (the device code inside is skipped; the file's other kernels still load)",
          dc == DECL_TEMPLATE ? "templates" : "namespaces");
        ps.prog->errors++;
        ps.prog->skipped_kernels++;
      }
      tok = skip_declaration(tok);
      continue;
    }
    /* parse; on error, recover at the next declaration */
    bool quiet_saved = diag_quiet;
    int errs = diag_errors;
    /* quiet for host functions (C++ bodies are not carve's business) and type definitions and
     * constants that are not C; a host variable that does not parse is an error like any other */
    bool host_var = (dc == DECL_HOST || dc == DECL_CONST) && !is_host_function(tok);
    if (dc == DECL_TYPE || dc == DECL_CONST || dc == DECL_HOST) diag_quiet = true;
    Scope *scope_saved = ps.scope;
    TopCall call = {tok, dc == DECL_CONST};
    if (carve_pcall(toplevel_call, &call)) {
      tok = call.tok;
    } else {
      ps.scope = scope_saved;
      ps.cur_fn = NULL;
      ps.block_depth = 0;
      ps.nest_depth = ps.stmt_depth = ps.expr_level = 0;
      /* an extern declaration is the program's own (C++ allows `extern const T x;`): quiet */
      if (host_var && !host_var_unsupported(diag_last_msg) && !unknown_type_first(start) &&
          !tok_equal(start, "extern")) {
        diag_quiet = quiet_saved;
        diag_errors = errs;
        char msg[sizeof diag_last_msg];
        snprintf(msg, sizeof msg, "%s", diag_last_msg);
        diag_at(DIAG_ERROR, diag_last_loc, "%s", msg);
        ps.prog->errors++;
      } else if (dc == DECL_DEVICE) {
        ps.prog->errors++;
        record_device_failure(start);
        for (Token *t = start; t->kind != TK_EOF && !tok_equal(t, "{") && !tok_equal(t, ";");
             t = t->next)
          if (tok_equal(t, "__global__")) {
            ps.prog->skipped_kernels++;
            break;
          }
      } else {
        diag_errors = errs; /* host-side type or constant that is not C: not carve's business */
        if (dc == DECL_TYPE) record_failed_type(start);
        if (dc == DECL_HOST) record_host_func(start); /* reported if the host program is run */
      }
      tok = host_var ? skip_host_var(start) : skip_declaration(start);
      if (tok == start) tok = tok->next;
    }
    diag_quiet = quiet_saved;
  }
  instantiate_launches();
  ps.stack_base = 0;
  vla_reset();
  Program *p = ps.prog;
  program_finish(p);
  p->parse_state = parse_state_save();
  /* no parser state outlives the parse: the file scope lives on in the Program */
  free(ps.failed_types);
  free(ps.using_ns);
  free(ps.ns_aliases);
  free(ps.host_funcs);
  memset(&ps, 0, sizeof ps);
  return p;
}

typedef struct FileScope {
  VarScope *table[GLOBAL_BUCKETS];
  Scope *scope;
} FileScope;

void *parse_state_save(void) {
  FileScope *s = arena_alloc(sizeof(FileScope));
  memcpy(s->table, ps.global_table, sizeof ps.global_table);
  s->scope = ps.scope;
  return s;
}

void parse_state_restore(const void *saved) {
  const FileScope *s = saved;
  if (s) {
    memcpy(ps.global_table, s->table, sizeof ps.global_table);
    ps.scope = s->scope;
  } else {
    memset(ps.global_table, 0, sizeof ps.global_table);
    ps.scope = NULL;
  }
}

/* the functions a kernel reaches through calls */
typedef struct {
  Obj **seen;
  int n;
} Callees;
static bool collect_calls(Node *n, void *ctx) {
  Callees *c = ctx;
  if (n->kind != ND_CALL || !n->fn) return true;
  for (int i = 0; i < c->n; i++)
    if (c->seen[i] == n->fn) return true;
  c->seen = xrealloc(c->seen, sizeof(Obj *) * (size_t)(c->n + 1));
  c->seen[c->n++] = n->fn;
  if (n->fn->body) walk(n->fn->body, collect_calls, NULL, c);
  return true;
}

int kernel_static_shared(Obj *k) {
  Callees c = {0};
  if (k->body) walk(k->body, collect_calls, NULL, &c);
  int total = k->shared_size;
  for (int i = 0; i < c.n; i++)
    if (c.seen[i] != k) total += c.seen[i]->shared_size;
  free(c.seen);
  return total;
}

Type *spec_typename(Token **rest, Token *tok) { return typename_(rest, tok); }
Type *spec_base_type(Token **rest, Token *tok) {
  Type *ty = declspec(&tok, tok, NULL);
  return pointers(rest, tok, ty);
}

/* a kernel's name as the user may write it: spaces do not matter ("k<256,float>"), and a
 * namespace may be left out where that names one kernel ("scale" for "kern::scale") */
static bool same_name(const char *a, const char *b) {
  for (;; a++, b++) {
    while (*a == ' ') a++;
    while (*b == ' ') b++;
    if (*a != *b) return false;
    if (!*a) return true;
  }
}
static bool names_kernel(const char *full, const char *name) {
  if (same_name(full, name)) return true;
  for (const char *c = strstr(full, "::"); c; c = strstr(c + 2, "::"))
    if (same_name(c + 2, name)) return true;
  return false;
}

/* `--kernel 'k<256, float>'` names an instance the file never made: it is made now, in p */
typedef struct {
  Program *p;
  const char *name;
  Obj *fn;
} LateInstance;
static void late_instance_call(void *ud) {
  LateInstance *li = ud;
  Token *tok = pp_expand("<command line>", li->name);
  merge_qualified(tok);
  Token *rest = tok;
  li->fn = template_instance_at(&rest, tok);
  if (li->fn && rest->kind != TK_EOF)
    error_tok(rest, "unexpected '%.*s' after the kernel's template arguments", rest->len,
              rest->loc);
}

static Obj *late_instance(Program *p, const char *name) {
  /* not while p is being loaded (its launch specifications are checked with find_kernel) */
  if (!strchr(name, '<') || !p->parse_state || !p->arena || ps.prog) return NULL;
  ParseState saved = ps;             /* the idle state (no parse runs), restored whole at the end */
  ProgramScope s = program_enter(p); /* p's file scope */
  ps.prog = p;
  ps.scope = ((FileScope *)p->parse_state)->scope;
  ps.funcs_tail = &p->funcs;
  while (*ps.funcs_tail) ps.funcs_tail = &(*ps.funcs_tail)->next;
  for (ps.last_item = p->items; ps.last_item && ps.last_item->next;
       ps.last_item = ps.last_item->next) {}
  LateInstance li = {p, name, NULL};
  ps.stack_base = (uintptr_t)__builtin_frame_address(0);
  bool ok = carve_pcall(late_instance_call, &li);
  if (ok && li.fn && li.fn->body) program_finish(p);
  program_leave(s);
  ps = saved;
  return ok && li.fn && li.fn->is_kernel && li.fn->body ? li.fn : NULL;
}

Obj *find_kernel(Program *p, const char *name) {
  Obj *found = NULL, *by_suffix = NULL;
  int n = 0, nsuffix = 0;
  for (Obj *f = p->funcs; f; f = f->next) {
    if (!f->is_kernel || !f->is_definition) continue;
    if (name && !strcmp(f->name, name)) return f;
    if (name && names_kernel(f->name, name)) {
      by_suffix = f;
      nsuffix++;
    }
    found = f;
    n++;
  }
  if (name) return nsuffix == 1 ? by_suffix : late_instance(p, name);
  return n == 1 ? found : NULL;
}
