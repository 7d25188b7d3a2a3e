/* parse: tokens -> typed AST, recursive descent, one function per grammar rule (the rule is
 * written above it). Device code (kernels, __device__ functions, __constant__/__device__
 * variables, types) is parsed; host code beside it (main, cudaMalloc, <<<...>>> launches,
 * templates on the host) is recognized by its declaration and skipped. An error inside a
 * declaration drops that declaration only: the other kernels of the file still load. */
#include "front.h"
#include "limits_parse.h"
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

/* ---- scopes ---- */
typedef struct VarScope {
  struct VarScope *next;
  char *name;
  Obj *var;
  Type *type_def;
  Type *enum_ty;
  int64_t enum_val;
  struct Template *tmpl;   /* C++: a function template's name */
  bool tparam;             /* a template's value parameter (enum_ty, enum_val) inside an instance */
  bool vla_array;          /* host code: a variable-length array, var its hidden pointer (the name means *var) */
} VarScope;
typedef struct TagScope { struct TagScope *next; char *name; Type *ty; } TagScope;
typedef struct Scope { struct Scope *next; VarScope *vars; TagScope *tags; } Scope;

typedef struct {
  bool is_typedef, is_static, is_extern, is_inline, is_const, is_constexpr;
  bool global, device, host, shared, constant, forceinline, noinline;
  int launch_bounds[2];
  int align;               /* __align__(N), _Alignas(N or T), alignas(N or T): the largest; 0 none */
  Token *cuda_tok, *extern_c;
} VarAttr;

static Scope *scope;
static Obj *cur_fn;
static Program *prog;
static int loop_depth, switch_depth, block_depth;
static bool fn_body_pending;
static Node *cur_switch;
static int nest_depth;        /* parser recursion inside one expression, declarator or initializer */
static int stmt_depth;        /* statements inside statements */
static int expr_level;        /* expr/assign/conditional calls open: 0 at a full expression */
static char **host_funcs;     /* names of skipped host functions, for better messages */
static int n_host_funcs;
/* C99 variable-length arrays (the VLA section): while a host function's parameters are parsed,
 * the list so far (their array counts wait for function()) */
static Type *vla_param_head;
static bool vla_host_decl;           /* the declarator being parsed declares a host function */

static Type *declspec(Token **rest, Token *tok, VarAttr *attr);
static Type *declarator(Token **rest, Token *tok, Type *ty);
static Type *abstract_declarator(Token **rest, Token *tok, Type *ty);
static Type *typename_(Token **rest, Token *tok);
static Node *expr(Token **rest, Token *tok);
static Node *assign(Token **rest, Token *tok);
static Node *assign_rhs(Token **rest, Token *tok);
static Node *conditional(Token **rest, Token *tok);
static Node *cast(Token **rest, Token *tok);
static Node *unary(Token **rest, Token *tok);
static Node *postfix(Token **rest, Token *tok);
static Node *primary(Token **rest, Token *tok);
static Node *compound_stmt(Token **rest, Token *tok);
static Node *stmt(Token **rest, Token *tok);
static bool is_typename(Token *tok);
static int64_t const_expr(Token **rest, Token *tok);
static bool eval_const(Node *n, int64_t *v);
static bool has_auto(const Type *t);
struct Template;
static Node *template_call(Token **rest, Token *tok, struct Template *t);
static Node *binary_level(Token **rest, Token *tok, int level);
static Obj *find_func(const char *name);
static void function(Token **rest, Token *tok, Type *ty, VarAttr *attr);
static Token *skip_declaration(Token *tok);   /* a division by zero is an error (parsing), or just "not constant" */
static Token *tnum_token(Token *at, int64_t v);
static Token *skip_angle(Token *tok);
static Type *cg_type(int group);
static Type *half_type(int which);
static int tile_size(Token **rest, Token *tok);
static Node *cg_method(Token **rest, Node *obj, Token *m);
static Node *half2_ctor(Token *name, Node *call);
static Node *func_args(Token **rest, Token *tok, Node *call);
static Node *make_vector_call(Token *name, Type *vt, Node *call);
static bool strict_const = true;   /* a division by zero is an error (parsing), or just "not constant" */
/* host programs: launches, dim3, the host runtime's declarations (below, before toplevel) */
static bool is_dim3(const Type *t);
static Node *dim3_declarator(Token **rest, Token *tok, Type *base);
static Node *dim3_ctor(Token **rest, Token *tok);
static Node *launch_expr(Token **rest, Token *tok);
static bool in_host_fn(void);
static void symbol_arg(Obj *fn, Node *call);
static void toplevel(Token **rest, Token *tok, bool host_const);
static bool has_vla(const Type *t);
static Node *vla_lower(Node *n);

Node *new_node(NodeKind kind, Token *tok) {
  Node *n = arena_alloc(sizeof(Node));
  n->kind = kind;
  n->tok = tok;
  n->id = -1;   /* program_finish numbers the nodes of the final tree */
  return n;
}
static Node *new_binary(NodeKind k, Node *l, Node *r, Token *tok) { Node *n = new_node(k, tok); n->lhs = l; n->rhs = r; return n; }
static Node *new_unary(NodeKind k, Node *e, Token *tok) { Node *n = new_node(k, tok); n->lhs = e; return n; }
static Node *new_num(int64_t v, Token *tok) { Node *n = new_node(ND_NUM, tok); n->ival = v; n->ty = ty_int; return n; }
static Node *new_var(Obj *v, Token *tok) { Node *n = new_node(ND_VAR, tok); n->var = v; n->ty = v->ty; return n; }

/* ---- nesting limits (limits_parse.h): a located error, never a stack overflow ---- */
static void nest_enter(Token *tok, const char *what) {
  if (++nest_depth > LIMIT_EXPR_NESTING) error_tok(tok, "%s nested too deeply " LIMIT_NOTE(LIMIT_EXPR_NESTING), what, LIMIT_EXPR_NESTING);
}
static void nest_leave(void) { nest_depth--; }

typedef struct { int depth; Node *over; } DepthWalk;
static bool depth_pre(Node *n, void *ctx) {
  DepthWalk *d = ctx;
  if (d->over) return false;
  if (d->depth == LIMIT_EXPR_DEPTH) { d->over = n; return false; }
  d->depth++;
  return true;
}
static bool depth_post(Node *n, void *ctx) { (void)n; ((DepthWalk *)ctx)->depth--; return true; }

/* A full expression's tree, checked once when it is complete: left-associative chains grow it
 * without recursion here, but every later stage recurses through it. */
static void check_expr_depth(Node *n) {
  DepthWalk d = {0, NULL};
  walk(n, depth_pre, depth_post, &d);
  if (d.over) error_tok(d.over->tok, "expression nested too deeply " LIMIT_NOTE(LIMIT_EXPR_DEPTH), LIMIT_EXPR_DEPTH);
}

/* expr, assign and conditional open and close through these; the outermost checks the depth */
static void expr_open(void) { expr_level++; }
static Node *expr_close(Node *n) {
  if (--expr_level == 0) check_expr_depth(n);
  return n;
}

/* an error just after token p (where a missing ';' or ')' belongs) */
static _Noreturn void error_after(Token *p, const char *msg) {
  SrcLoc l = tok_loc(p);
  if (!p->origin) { l.col += p->len; l.loc += p->len; }
  diag_at(DIAG_ERROR, l, "%s", msg);
  carve_throw();
}

static Token *skip(Token *tok, const char *s) {
  if (!tok_equal(tok, s)) {
    bool closer = !strcmp(s, ";") || !strcmp(s, ")") || !strcmp(s, "]") || !strcmp(s, "}");
    if (closer && tok->prev && (tok->at_bol || tok->kind == TK_EOF) && tok->prev->kind != TK_PRAGMA)
      error_after(tok->prev, fmt("expected '%s'", s));
    if (tok->kind == TK_EOF) error_tok(tok, "expected '%s' at end of input", s);
    error_tok(tok, "expected '%s' before '%.*s'", s, tok->len, tok->loc);
  }
  return tok->next;
}
static bool consume(Token **rest, Token *tok, const char *s) {
  if (tok_equal(tok, s)) { *rest = tok->next; return true; }
  *rest = tok;
  return false;
}
static char *get_ident(Token *tok) {
  if (tok->kind != TK_IDENT) error_tok(tok, "expected an identifier before '%.*s'", tok->len, tok->loc);
  return tok_text(tok);
}

static void enter_scope(void) { Scope *s = arena_alloc(sizeof(Scope)); s->next = scope; scope = s; }
static void leave_scope(void) { scope = scope->next; }

/* File scope can hold thousands of names (large generated files): it is hashed. Block scopes
 * are short lists. */
#define GLOBAL_BUCKETS 4096
static VarScope *global_table[GLOBAL_BUCKETS];

static unsigned name_hash(const char *s, int len) {
  unsigned h = 2166136261u;
  for (int i = 0; i < len; i++) h = (h ^ (unsigned char)s[i]) * 16777619u;
  return h % GLOBAL_BUCKETS;
}

static VarScope *find_global_n(const char *name, int len) {
  for (VarScope *v = global_table[name_hash(name, len)]; v; v = v->next)
    if ((int)strlen(v->name) == len && !memcmp(v->name, name, (size_t)len)) return v;
  return NULL;
}

/* ---- C++ namespaces (docs/cxx.md): a name declared in namespace a::b is kept at file scope
 * as "a::b::name"; the tokens "a :: b :: name" are one identifier (merge_qualified). Lookup
 * tries the enclosing namespaces innermost first, the name itself, then `using namespace`. */
static char *cur_ns;                 /* "a::b", NULL at file scope */
static char **using_ns; static int n_using;
typedef struct { char *alias, *target; } NsAlias;
static NsAlias *ns_aliases; static int n_ns_aliases;

static VarScope *find_in_namespace(const char *ns, const char *name, int len) {
  char *q = fmt("%s::%.*s", ns, len, name);
  return find_global_n(q, (int)strlen(q));
}

/* "cg::x" with `namespace cg = cooperative_groups;`: "cooperative_groups::x" */
static const char *resolve_alias(const char *name, int *len) {
  for (int i = 0; i < n_ns_aliases; i++) {
    int n = (int)strlen(ns_aliases[i].alias);
    if (*len > n + 2 && !strncmp(name, ns_aliases[i].alias, (size_t)n) && !strncmp(name + n, "::", 2)) {
      char *r = fmt("%s%.*s", ns_aliases[i].target, *len - n, name + n);
      *len = (int)strlen(r);
      return r;
    }
  }
  return name;
}

static VarScope *find_qualified(const char *name, int len) {
  if (len > 2 && !strncmp(name, "::", 2)) return find_global_n(name + 2, len - 2);
  name = resolve_alias(name, &len);
  for (char *ns = cur_ns ? arena_strdup(cur_ns) : NULL; ns;) {
    VarScope *v = find_in_namespace(ns, name, len);
    if (v) return v;
    char *cut = NULL;
    for (char *c = ns; (c = strstr(c, "::")); c += 2) cut = c;
    if (!cut) break;
    *cut = 0;
  }
  VarScope *v = find_global_n(name, len);
  for (int i = n_using - 1; !v && i >= 0; i--) v = find_in_namespace(using_ns[i], name, len);
  return v;
}

/* the name a file-scope declaration gets inside the current namespace */
static char *ns_qualify(char *name) {
  if (!strncmp(name, "::", 2)) return name + 2;
  if (strstr(name, "::")) {
    VarScope *v = find_qualified(name, (int)strlen(name));
    if (v && v->var) return v->var->name;
  }
  return cur_ns ? fmt("%s::%s", cur_ns, name) : name;
}

static VarScope *find_var_n(const char *name, int len) {
  for (Scope *s = scope; s && s->next; s = s->next)
    for (VarScope *v = s->vars; v; v = v->next)
      if ((int)strlen(v->name) == len && !memcmp(v->name, name, (size_t)len)) return v;
  if (cur_ns || n_using || memchr(name, ':', (size_t)len)) return find_qualified(name, len);
  return find_global_n(name, len);
}
static VarScope *find_var(Token *tok) { return find_var_n(tok->loc, tok->len); }
/* the function template `name <...>` names: C++ lets a template share its name with a function
 * (threadFenceReduction's extern "C" reduceSinglePass beside the kernel template of that name) */
static VarScope *find_template(Token *tok) {
  VarScope *v = find_var(tok);
  if (!v || v->tmpl || !tok_equal(tok->next, "<")) return v;
  for (VarScope *w = global_table[name_hash(tok->loc, tok->len)]; w; w = w->next)
    if (w->tmpl && (int)strlen(w->name) == tok->len && !memcmp(w->name, tok->loc, (size_t)tok->len)) return w;
  return v;
}
static Type *find_tag(Token *tok) {
  for (Scope *s = scope; s; s = s->next)
    for (TagScope *t = s->tags; t; t = t->next)
      if (tok_equal(tok, t->name)) return t->ty;
  return NULL;
}
static VarScope *push_global(char *name) {
  VarScope *v = arena_alloc(sizeof(VarScope));
  v->name = name;
  unsigned h = name_hash(name, (int)strlen(name));
  v->next = global_table[h];
  global_table[h] = v;
  return v;
}

static VarScope *push_scope(char *name) {
  if (!scope->next) return push_global(name);
  VarScope *v = arena_alloc(sizeof(VarScope));
  v->name = name;
  v->next = scope->vars;
  scope->vars = v;
  return v;
}
static char *ns_qualify(char *name);
static void push_tag(Token *tok, Type *ty) {
  TagScope *t = arena_alloc(sizeof(TagScope));
  t->name = tok_text(tok);
  t->ty = ty;
  t->next = scope->tags;
  scope->tags = t;
  /* C++: a struct's tag is a type name ("Point p;") */
  if (ty->kind == TY_STRUCT) push_scope(scope->next ? t->name : ns_qualify(t->name))->type_def = ty;
}
static VarScope *find_in_current(Token *tok) {
  if (!scope->next) {
    for (VarScope *v = global_table[name_hash(tok->loc, tok->len)]; v; v = v->next)
      if (tok_equal(tok, v->name)) return v;
    return NULL;
  }
  for (VarScope *v = scope->vars; v; v = v->next)
    if (tok_equal(tok, v->name)) return v;
  return NULL;
}

static Type *builtin_typedef(const char *name, int len);
static Type *find_typedef(Token *tok) {
  if (tok->kind != TK_IDENT) return NULL;
  VarScope *v = find_var(tok);
  if (v) return v->type_def;
  Type *b = builtin_typedef(tok->loc, tok->len);
  if (b) return b;
  char last = tok->loc[tok->len - 1];
  if (last < '1' || last > '4') return NULL;
  return vector_type(tok_text(tok));
}

static Obj *new_obj(char *name, Type *ty, Token *tok, StorageClass sc) {
  Obj *o = arena_alloc(sizeof(Obj));
  o->name = name;
  o->ty = ty;
  o->tok = tok;
  o->sc = sc;
  o->slot = -1;
  return o;
}

static Obj *new_local(char *name, Type *ty, Token *tok, StorageClass sc) {
  VarScope *prev = find_in_current(tok);
  if (prev && prev->var) error_tok(tok, "redefinition of '%s'", name);
  Obj *o = new_obj(name, ty, tok, sc);
  if (sc == SC_LOCAL || sc == SC_PARAM) {
    /* chain into the function's list of locals (layout.c rebuilds it, with slots and offsets) */
    Obj **pp = &cur_fn->locals;
    while (*pp) pp = &(*pp)->next_local;
    *pp = o;
  }
  push_scope(name)->var = o;
  return o;
}

/* type definitions that did not parse (they looked like host code); reported if device code uses them */
typedef struct { char *name; char msg[512]; SrcLoc loc; } FailedType;
static FailedType *failed_types;
static int n_failed_types;

static void report_failed_type(Token *use) {
  if (use->kind != TK_IDENT) return;
  for (int i = 0; i < n_failed_types; i++)
    if (tok_equal(use, failed_types[i].name)) {
      diag_at(DIAG_ERROR, failed_types[i].loc, "%s", failed_types[i].msg);
      note_tok(use, "'%s' is used here; its definition above could not be read", failed_types[i].name);
      carve_throw();
    }
}

static void add_failed_type(Token *name) {
  failed_types = xrealloc(failed_types, sizeof(FailedType) * (size_t)(n_failed_types + 1));
  FailedType *f = &failed_types[n_failed_types++];
  f->name = tok_text(name);
  snprintf(f->msg, sizeof f->msg, "%s", diag_last_msg);
  f->loc = diag_last_loc;
}

static void record_failed_type(Token *start) {
  /* the names a definition declares: its tag, and a typedef's name (the last identifier at depth 0) */
  int depth = 0;
  Token *last_ident = NULL;
  for (Token *t = start; t->kind != TK_EOF; t = t->next) {
    if ((tok_equal(t, "struct") || tok_equal(t, "union") || tok_equal(t, "class") || tok_equal(t, "enum")) && t->next->kind == TK_IDENT)
      add_failed_type(t->next);
    if (tok_equal(t, "{") || tok_equal(t, "(")) depth++;
    else if (tok_equal(t, "}") || tok_equal(t, ")")) depth--;
    else if (depth == 0 && t->kind == TK_IDENT) last_ident = t;
    else if (depth == 0 && tok_equal(t, ";")) break;
  }
  if (last_ident && tok_equal(start, "typedef")) add_failed_type(last_ident);
}

static bool is_host_func(Token *tok) {
  for (int i = 0; i < n_host_funcs; i++)
    if (tok_equal(tok, host_funcs[i])) return true;
  return false;
}

/* ---------------- constant expressions over the AST ---------------- */
/* a constexpr function's parameters while its return expression is evaluated */
typedef struct { Obj *param; int64_t val; } ConstBind;
static ConstBind const_binds[64];
static int n_const_binds;

static bool eval_const_at(Node *n, int64_t *v, int depth);

/* constexpr int f(int x) { return E; } called with constant arguments: E with x bound */
static bool eval_const_call(Node *n, int64_t *v, int depth) {
  Obj *fn = n->fn;
  Node *body = fn->body ? fn->body->stmts : NULL;
  if (!fn->is_constexpr || !body || body->kind != ND_RETURN || !body->lhs || !is_integer(fn->ty->return_ty)) return false;
  int64_t vals[16];
  int k = 0, mark = n_const_binds;
  for (Node *a = n->args; a; a = a->next, k++)
    if (k == 16 || !eval_const_at(a, &vals[k], depth + 1)) return false;
  if (n_const_binds + k > 64) return false;
  k = 0;
  for (Obj *p = fn->params; p; p = p->next, k++) const_binds[n_const_binds++] = (ConstBind){p, vals[k]};
  bool ok = eval_const_at(body->lhs, v, depth + 1);
  n_const_binds = mark;
  return ok;
}

/* the recursion is bounded like add_type's: trees the parser has not measured yet reach here */
static bool eval_const_at(Node *n, int64_t *v, int depth) {
  int64_t a = 0, b = 0;
  if (depth > LIMIT_EXPR_DEPTH) {
    if (!strict_const) return false;
    error_tok(n->tok, "expression nested too deeply " LIMIT_NOTE(LIMIT_EXPR_DEPTH), LIMIT_EXPR_DEPTH);
  }
  switch (n->kind) {
  case ND_CALL: return n->fn && eval_const_call(n, v, depth);
  case ND_NUM:
    if (is_flonum(n->ty)) { *v = (int64_t)n->fval; return true; }
    *v = n->ival;
    return true;
  case ND_SIZEOF: *v = n->ival; return true;
  case ND_VAR:
    for (int i = n_const_binds - 1; i >= 0; i--)
      if (const_binds[i].param == n->var) { *v = const_binds[i].val; return true; }
    if (n->var->is_const_decl && n->var->init && is_integer(n->var->ty) && n->var->init->kind != ND_INIT_LIST)
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
  case ND_NEG: if (!eval_const_at(n->lhs, &a, depth + 1)) return false; *v = (int64_t)(0 - (uint64_t)a); return true;
  case ND_POS: return eval_const_at(n->lhs, v, depth + 1);
  case ND_NOT: if (!eval_const_at(n->lhs, &a, depth + 1)) return false; *v = !a; return true;
  case ND_BITNOT: if (!eval_const_at(n->lhs, &a, depth + 1)) return false; *v = ~a; return true;
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
  case ND_DIV: case ND_MOD:
    if (b == 0) {
      if (!strict_const) return false;
      error_tok(n->tok, "division by zero in constant expression");
    }
    if (u) *v = n->kind == ND_DIV ? (int64_t)((uint64_t)a / (uint64_t)b) : (int64_t)((uint64_t)a % (uint64_t)b);
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

static bool eval_const(Node *n, int64_t *v) { return eval_const_at(n, v, 0); }

bool node_int_constant(Node *n, int64_t *v) {
  if (!n || (n->ty && is_flonum(n->ty))) return false;
  strict_const = false;
  bool ok = eval_const(n, v);
  strict_const = true;
  return ok;
}

static int64_t const_expr(Token **rest, Token *tok) {
  Node *n = conditional(rest, tok);
  add_type(n);
  int64_t v;
  if (!eval_const(n, &v)) error_tok(tok, "expression is not an integer constant");
  return v;
}

/* ---------------- types ---------------- */

/* struct-decl = "{" (declspec declarator ("," declarator)* ";")* "}" */
static void struct_members(Token **rest, Token *tok, Type *ty) {
  Member head = {0}, *cur = &head;
  int idx = 0;
  while (!tok_equal(tok, "}")) {
    if (tok->kind == TK_EOF) error_tok(tok, "expected '}' at end of input");
    if (tok->kind == TK_PRAGMA) { tok = tok->next; continue; }
    if ((tok_equal(tok, "public") || tok_equal(tok, "private") || tok_equal(tok, "protected")) && tok_equal(tok->next, ":")) {
      tok = tok->next->next;   /* access does not change what device code computes */
      continue;
    }
    VarAttr attr = {0};
    Type *base = declspec(&tok, tok, &attr);
    bool first = true;
    while (!consume(&tok, tok, ";")) {
      if (!first) tok = skip(tok, ",");
      first = false;
      Type *mty = declarator(&tok, tok, base);
      if (mty->kind == TY_FUNC) error_tok(mty->name, "unsupported C++: member functions");
      if (mty->is_ref || has_auto(mty)) error_tok(mty->name, "unsupported C++: %s members", mty->is_ref ? "reference" : "'auto'");
      if (tok_equal(tok, ":")) error_tok(tok, "unsupported: bit-fields");
      if (has_vla(mty)) error_tok(mty->name, "a struct member cannot have a variable-length array type");
      if (mty->kind == TY_ARRAY && mty->array_len < 0) error_tok(mty->name, "flexible array members are not supported");
      Member *m = arena_alloc(sizeof(Member));
      m->ty = mty;
      m->name = mty->name;
      m->idx = idx++;
      cur = cur->next = m;
    }
  }
  *rest = tok->next;
  ty->members = head.next;
}

/* struct-union-decl = ident? ("{" struct-members)? */
static Type *struct_decl(Token **rest, Token *tok, bool is_union) {
  Token *tag = NULL;
  if (tok->kind == TK_IDENT) { tag = tok; tok = tok->next; }
  if (tag && !tok_equal(tok, "{")) {
    Type *ty = find_tag(tag);
    if (ty) { *rest = tok; return ty; }
    report_failed_type(tag);
    ty = struct_type();
    ty->size = -1;
    ty->tag = tok_text(tag);
    push_tag(tag, ty);
    *rest = tok;
    return ty;
  }
  if (tok_equal(tok, ":")) error_tok(tok, "unsupported C++: inheritance");
  nest_enter(tok, "struct definition");
  tok = skip(tok, "{");
  Type *ty = struct_type();
  if (tag) ty->tag = tok_text(tag);
  struct_members(rest, tok, ty);
  nest_leave();
  int offset = 0;
  for (Member *m = ty->members; m; m = m->next) {
    if (m->ty->size < 0) error_tok(m->name, "member has incomplete type");
    if (is_union) { if (m->ty->size > offset) offset = m->ty->size; m->offset = 0; }
    else { offset = (offset + m->ty->align - 1) / m->ty->align * m->ty->align; m->offset = offset; offset += m->ty->size; }
    if (ty->align < m->ty->align) ty->align = m->ty->align;
  }
  if (is_union) error_tok(tok, "unsupported: unions");
  ty->size = (offset + ty->align - 1) / ty->align * ty->align;
  if (tag) {
    Type *prev = NULL;
    for (TagScope *t = scope->tags; t; t = t->next)
      if (tok_equal(tag, t->name)) prev = t->ty;
    if (prev && prev->size < 0) { *prev = *ty; return prev; }
    push_tag(tag, ty);
  }
  return ty;
}

/* enum-specifier = ident? "{" enum-list? "}" | ident */
static Type *enum_specifier(Token **rest, Token *tok) {
  Type *ty = copy_type(ty_int);
  ty->kind = TY_ENUM;
  ty->origin = NULL;
  Token *tag = NULL;
  if (tok_equal(tok, "class") || tok_equal(tok, "struct")) error_tok(tok, "unsupported C++: scoped enums");
  if (tok->kind == TK_IDENT) { tag = tok; tok = tok->next; }
  if (tok_equal(tok, ":")) error_tok(tok, "unsupported C++: enum with an underlying type");
  if (tag && !tok_equal(tok, "{")) {
    Type *t = find_tag(tag);
    if (!t) error_tok(tag, "unknown enum type '%.*s'", tag->len, tag->loc);
    if (t->kind != TY_ENUM) error_tok(tag, "'%.*s' is not an enum tag", tag->len, tag->loc);
    *rest = tok;
    return t;
  }
  if (tag) ty->tag = tok_text(tag);
  tok = skip(tok, "{");
  int64_t val = 0;
  bool first = true;
  Member mhead = {0}, *mcur = &mhead;
  while (!tok_equal(tok, "}")) {
    if (!first) { tok = skip(tok, ","); if (tok_equal(tok, "}")) break; }
    first = false;
    char *name = get_ident(tok);
    Token *nt = tok;
    tok = tok->next;
    if (tok_equal(tok, "=")) val = const_expr(&tok, tok->next);
    VarScope *vs = push_scope(scope->next ? name : ns_qualify(name));
    vs->enum_ty = ty;
    vs->enum_val = val;
    Member *m = arena_alloc(sizeof(Member));
    m->name = nt;
    m->offset = (int)val;
    mcur = mcur->next = m;
    val++;
  }
  ty->members = mhead.next;
  *rest = tok->next;
  if (tag) push_tag(tag, ty);
  return ty;
}

/* The C types carve predefines (from <stddef.h>, <stdint.h>). */
/* The types carve predefines (from <stddef.h>, <stdint.h>, cuda_fp16.h, dim3): static, like
 * the vector types, so launch settings read after a load find them too (find_typedef). */
static Type *builtin_typedef(const char *name, int len) {
  static const struct { const char *name; Type **ty; int half; } td[] = {
    {"size_t", &ty_ulong, 0}, {"ptrdiff_t", &ty_long, 0}, {"intptr_t", &ty_long, 0}, {"uintptr_t", &ty_ulong, 0},
    {"int8_t", &ty_schar, 0}, {"uint8_t", &ty_uchar, 0}, {"int16_t", &ty_short, 0}, {"uint16_t", &ty_ushort, 0},
    {"int32_t", &ty_int, 0}, {"uint32_t", &ty_uint, 0}, {"int64_t", &ty_long, 0}, {"uint64_t", &ty_ulong, 0},
    {"uint", &ty_uint, 0}, {"ushort", &ty_ushort, 0}, {"uchar", &ty_uchar, 0}, {"ulong", &ty_ulong, 0},
    /* C++ (cuda_fp16.h): __half is 16 bits, __half2 two of them (.x low) */
    {"__half", &ty_ushort, 1}, {"half", &ty_ushort, 1}, {"__half2", &ty_uint, 2}, {"half2", &ty_uint, 2},
    {"dim3", NULL, 0},   /* CUDA's dim3: a uint3 whose omitted components are 1 */
  };
  enum { N = sizeof td / sizeof *td };
  static Type types[N];
  for (size_t i = 0; i < N; i++) {
    if ((int)strlen(td[i].name) != len || memcmp(td[i].name, name, (size_t)len)) continue;
    if (!types[i].typedef_name) {
      Type *base = td[i].ty ? *td[i].ty : vector_type("uint3");
      types[i] = *base;
      types[i].origin = base;
      types[i].typedef_name = td[i].name;
      types[i].is_half = (unsigned char)td[i].half;
    }
    return &types[i];
  }
  return NULL;
}

static bool is_cuda_qualifier(Token *tok) {
  return tok_equal(tok, "__global__") || tok_equal(tok, "__device__") || tok_equal(tok, "__host__") ||
         tok_equal(tok, "__shared__") || tok_equal(tok, "__constant__") || tok_equal(tok, "__forceinline__") ||
         tok_equal(tok, "__noinline__") || tok_equal(tok, "__launch_bounds__");
}

/* `auto`: a placeholder that declaration() replaces by the initializer's type */
static Type auto_type = {.kind = TY_VOID, .size = 1, .align = 1, .typedef_name = "auto"};
static bool is_auto(const Type *t) {
  for (; t; t = t->origin) if (t == &auto_type) return true;
  return false;
}
static bool has_auto(const Type *t) {
  while (t->kind == TY_PTR) t = t->base;
  return is_auto(t);
}

/* declspec = (type-keyword | qualifier | storage | cuda-qualifier | typedef-name
 *             | struct-decl | enum-specifier | "__launch_bounds__" "(" expr ("," expr)? ")")+ */
static Type *declspec(Token **rest, Token *tok, VarAttr *attr) {
  enum { VOID = 1 << 0, BOOL = 1 << 2, CHAR = 1 << 4, SHORT = 1 << 6, INT = 1 << 8, LONG = 1 << 10,
         FLOAT = 1 << 12, DOUBLE = 1 << 14, OTHER = 1 << 16, SIGNED = 1 << 17, UNSIGNED = 1 << 18 };
  Type *ty = ty_int;
  int counter = 0;
  int qual = 0;
  Token *start = tok;
  while (is_typename(tok)) {
    if (tok_equal(tok, "typedef") || tok_equal(tok, "static") || tok_equal(tok, "extern") ||
        tok_equal(tok, "inline") || tok_equal(tok, "register") || tok_equal(tok, "__inline__")) {
      if (!attr) error_tok(tok, "storage class specifier is not allowed in this context");
      if (tok_equal(tok, "typedef")) attr->is_typedef = true;
      else if (tok_equal(tok, "static")) attr->is_static = true;
      else if (tok_equal(tok, "extern")) {
        attr->is_extern = true;
        if (tok->next->kind == TK_STR) { attr->extern_c = tok->next; tok = tok->next; }
      } else if (tok_equal(tok, "inline") || tok_equal(tok, "__inline__")) attr->is_inline = true;
      tok = tok->next;
      continue;
    }
    if (is_cuda_qualifier(tok)) {
      if (!attr) error_tok(tok, "'%.*s' is not allowed in this context", tok->len, tok->loc);
      if (!attr->cuda_tok) attr->cuda_tok = tok;
      if (tok_equal(tok, "__global__")) attr->global = true;
      else if (tok_equal(tok, "__device__")) attr->device = true;
      else if (tok_equal(tok, "__host__")) attr->host = true;
      else if (tok_equal(tok, "__shared__")) attr->shared = true;
      else if (tok_equal(tok, "__constant__")) attr->constant = true;
      else if (tok_equal(tok, "__forceinline__")) attr->forceinline = true;
      else if (tok_equal(tok, "__noinline__")) attr->noinline = true;
      else {
        tok = skip(tok->next, "(");
        attr->launch_bounds[0] = (int)const_expr(&tok, tok);
        if (consume(&tok, tok, ",")) attr->launch_bounds[1] = (int)const_expr(&tok, tok);
        if (consume(&tok, tok, ",")) const_expr(&tok, tok);
        tok = skip(tok, ")");
        continue;
      }
      tok = tok->next;
      continue;
    }
    if (tok_equal(tok, "__align__") || tok_equal(tok, "_Alignas") || tok_equal(tok, "alignas")) {
      Token *at = tok;
      tok = skip(tok->next, "(");
      int64_t a;
      if (is_typename(tok)) a = typename_(&tok, tok)->align;
      else a = const_expr(&tok, tok);
      tok = skip(tok, ")");
      if (a <= 0 || a > 4096 || (a & (a - 1))) error_tok(at, "requested alignment %lld is not a power of two from 1 to 4096", (long long)a);
      if (attr && a > attr->align) attr->align = (int)a;
      continue;
    }
    if (tok_equal(tok, "const") || tok_equal(tok, "constexpr")) {
      qual |= Q_CONST;
      if (attr) { attr->is_const = true; attr->is_constexpr |= tok_equal(tok, "constexpr"); }
      tok = tok->next;
      continue;
    }
    if (tok_equal(tok, "volatile")) { qual |= Q_VOLATILE; tok = tok->next; continue; }
    /* __grid_constant__ (a const kernel parameter whose address may be taken): kept, printed */
    if (tok_equal(tok, "__grid_constant__")) { qual |= Q_GRID_CONSTANT; tok = tok->next; continue; }
    if (tok_equal(tok, "restrict") || tok_equal(tok, "__restrict__") || tok_equal(tok, "__restrict")) { qual |= Q_RESTRICT; tok = tok->next; continue; }
    if (tok_equal(tok, "auto")) {
      if (counter) error_tok(tok, "invalid combination of type specifiers");
      ty = &auto_type;   /* deduced from the initializer (declaration) */
      counter += OTHER;
      tok = tok->next;
      continue;
    }
    if (tok_equal(tok, "typename") || tok_equal(tok, "template"))
      error_tok(tok, "unsupported C++: '%.*s'", tok->len, tok->loc);
    Type *td = find_typedef(tok);
    if (tok_equal(tok, "struct") || tok_equal(tok, "class") || tok_equal(tok, "union") || tok_equal(tok, "enum") || td) {
      if (counter) break;
      if (tok_equal(tok, "union")) { report_failed_type(tok->next); error_tok(tok, "unsupported: unions"); }
      if (tok_equal(tok, "struct") || tok_equal(tok, "class")) ty = struct_decl(&tok, tok->next, false);
      else if (tok_equal(tok, "enum")) ty = enum_specifier(&tok, tok->next);
      else { ty = td; tok = tok->next; }
      if (ty->cg_group == -2) ty = cg_type(tile_size(&tok, tok));   /* thread_block_tile<N> */
      counter += OTHER;
      continue;
    }
    if (tok_equal(tok, "void")) counter += VOID;
    else if (tok_equal(tok, "_Bool") || tok_equal(tok, "bool")) counter += BOOL;
    else if (tok_equal(tok, "char")) counter += CHAR;
    else if (tok_equal(tok, "short")) counter += SHORT;
    else if (tok_equal(tok, "int")) counter += INT;
    else if (tok_equal(tok, "long")) counter += LONG;
    else if (tok_equal(tok, "float")) counter += FLOAT;
    else if (tok_equal(tok, "double")) counter += DOUBLE;
    else if (tok_equal(tok, "signed")) counter |= SIGNED;
    else if (tok_equal(tok, "unsigned")) counter |= UNSIGNED;
    else error_tok(tok, "unexpected '%.*s' in declaration", tok->len, tok->loc);
    switch (counter) {
    case VOID: ty = ty_void; break;
    case BOOL: ty = ty_bool; break;
    case CHAR: case SIGNED + CHAR: ty = ty_char; break;
    case UNSIGNED + CHAR: ty = ty_uchar; break;
    case SHORT: case SHORT + INT: case SIGNED + SHORT: case SIGNED + SHORT + INT: ty = ty_short; break;
    case UNSIGNED + SHORT: case UNSIGNED + SHORT + INT: ty = ty_ushort; break;
    case INT: case SIGNED: case SIGNED + INT: ty = ty_int; break;
    case UNSIGNED: case UNSIGNED + INT: ty = ty_uint; break;
    case LONG: case LONG + INT: case SIGNED + LONG: case SIGNED + LONG + INT: ty = ty_long; break;
    case LONG + LONG: case LONG + LONG + INT: case SIGNED + LONG + LONG: case SIGNED + LONG + LONG + INT: ty = ty_llong; break;
    case UNSIGNED + LONG: case UNSIGNED + LONG + INT: ty = ty_ulong; break;
    case UNSIGNED + LONG + LONG: case UNSIGNED + LONG + LONG + INT: ty = ty_ullong; break;
    case FLOAT: ty = ty_float; break;
    case DOUBLE: case LONG + DOUBLE: ty = ty_double; break;
    default: error_tok(tok, "invalid combination of type specifiers");
    }
    tok = tok->next;
  }
  if (tok == start) {
    report_failed_type(tok);
    if (tok->kind == TK_IDENT && (tok->next->kind == TK_IDENT || tok_equal(tok->next, "*") || tok_equal(tok->next, "[")))
      error_tok(tok, "unknown type name '%.*s'", tok->len, tok->loc);
    error_tok(tok, "expected a type before '%.*s'", tok->len, tok->loc);
  }
  *rest = tok;
  return qualified(ty, qual);
}

static bool has_side_effect(Node *n);
/* func-params = ("void" | param ("," param)* ("," "...")?)? ")" */
static Type *func_params(Token **rest, Token *tok, Type *ty) {
  Type *fn = func_type(ty);
  if (tok_equal(tok, "void") && tok_equal(tok->next, ")")) { *rest = tok->next->next; return fn; }
  /* in the arena: array counts parsed meanwhile see the parameters so far (vla_param_head) */
  Type *head = arena_alloc(sizeof(Type)), *cur = head;
  Type *outer = vla_param_head;
  vla_param_head = head;
  while (!tok_equal(tok, ")")) {
    if (cur != head) tok = skip(tok, tok_equal(tok, ",") ? "," : ")");
    if (tok_equal(tok, "...")) { fn->is_variadic = true; tok = tok->next; if (!tok_equal(tok, ")")) error_tok(tok, "expected ')' after '...'"); break; }
    VarAttr pattr = {0};
    Type *pt = declspec(&tok, tok, &pattr);
    if (pattr.cuda_tok) error_tok(pattr.cuda_tok, "'%.*s' is not allowed on a parameter", pattr.cuda_tok->len, pattr.cuda_tok->loc);
    Token *ptok = tok;
    pt = declarator(&tok, tok, pt);
    Token *name = pt->name;
    if (pt->kind == TY_PTR && pt->base->kind == TY_FUNC) error_tok(ptok, "unsupported: function pointers");
    if (pt->kind == TY_ARRAY) { Type *q = pointer_to(pt->base); q->qual = pt->qual; pt = q; pt->name = name; }
    else if (pt->kind == TY_FUNC) error_tok(name ? name : tok, "unsupported: function pointers");
    if (pt->kind == TY_VOID) error_tok(name ? name : tok, "parameter has type 'void'");
    Node *def = NULL;
    if (tok_equal(tok, "=")) {   /* C++ default argument: filled in where a call leaves it out */
      def = assign(&tok, tok->next);
      add_type(def);
      if (has_side_effect(def)) error_tok(def->tok, "unsupported C++: a default argument with side effects (carve fills it in at each call)");
    } else if (cur != head && cur->default_arg) {
      error_tok(name ? name : tok, "missing default argument on parameter '%s' (the parameters after one with a default have defaults)", name ? tok_text(name) : "");
    }
    if (has_auto(pt)) error_tok(name ? name : tok, "unsupported C++: 'auto' parameters");
    if (pt->is_ref && (pt->base->qual & Q_CONST) && pt->base->kind != TY_ARRAY) {
      /* const T&: passed by value (the callee cannot write it; docs/cxx.md) */
      pt = copy_type(pt->base);
      pt->is_ref = true;
    }
    cur = cur->next = copy_type(pt);
    cur->name = name;
    cur->default_arg = def;
  }
  vla_param_head = outer;
  fn->params = head->next;
  *rest = tok->next;
  return fn;
}

/* ---------------- C99 variable-length arrays (host code) ----------------
 * A VLA type is a TY_ARRAY whose array_len is VLA_LEN; its size in bytes is known when the
 * program runs, as C evaluates it (C11 6.7.6.2): a declaration evaluates the sizes of the
 * types it declares when it executes, into hidden locals (a parameter's at the function's
 * entry); a type name in a cast or sizeof, where the expression is evaluated. Every use that
 * depends on the size is written here as byte arithmetic, so nothing after the parser sees a
 * VLA's size: with row a VLA type, p[i] for p a pointer to rows is *(row *)((char *)p + i *
 * size(row)), p + i, p - q, p++, p += i likewise, and sizeof is the size's expression. The
 * sizes go through the host runtime's __carve_vla_size, which faults on a count that is not
 * positive (host.c). A local array `T v[n]` is host memory from __carve_vla_alloc, held by a
 * hidden pointer (NULL at the function's entry) that the name v dereferences; the allocation
 * is freed when the declaration executes again (a loop) and at every return. type.c rejects
 * anything else that would need a VLA's size (an error, never a wrong size). Device code
 * keeps nvcc's rule: no variable-length arrays. */
#define VLA_LEN (-2)   /* Type.array_len of a variable-length array (type.c uses the same value) */
typedef struct Vla {
  struct Vla *next;
  Type *ty;          /* the array type (copies find it through Type.origin) */
  Node *len;         /* the element count (NULL: a parameter's, parsed by function(); or [*]) */
  Token *len_tok;    /* where the count is written (NULL for [*]) */
  Obj *size;         /* the hidden local that holds the size, once a declaration evaluated it */
} Vla;
static Vla *vlas;                    /* the file's VLA types */
/* the host function being parsed: hidden declarations run at its entry, its local VLAs */
static struct { Node head, *tail; Obj **arrays; int narrays; } vla_fn;

/* before each top-level declaration: no declarator of an unwound one is still open */
static void vla_decl_reset(void) { vla_param_head = NULL; vla_host_decl = false; }
/* no VLA state outlives a parse (its types live in that program's arena) */
static void vla_reset(void) {
  vlas = NULL;
  free(vla_fn.arrays);
  memset(&vla_fn, 0, sizeof vla_fn);
  vla_decl_reset();
}

static bool is_vla(const Type *t) { return t && t->kind == TY_ARRAY && t->array_len == VLA_LEN; }
/* a VLA at any level of pointers and arrays (a variably modified type) */
static bool has_vla(const Type *t) {
  for (; t && (t->kind == TY_PTR || t->kind == TY_ARRAY); t = t->base)
    if (is_vla(t)) return true;
  return false;
}
static Vla *vla_of(const Type *t) {
  for (; t; t = t->origin)
    for (Vla *v = vlas; v; v = v->next)
      if (v->ty == t) return v;
  return NULL;
}

static Type *vla_type(Type *base, Node *len, Token *len_tok) {
  Type *t = array_of(base, -1);
  t->array_len = VLA_LEN;
  Vla *v = arena_alloc(sizeof(Vla));
  *v = (Vla){vlas, t, len, len_tok, NULL};
  vlas = v;
  return t;
}

static Node *typed_cast(Node *e, Type *ty) {
  Node *c = new_node(ND_CAST, e->tok);
  c->lhs = e;
  c->cast_ty = ty;
  add_type(c);
  return c;
}

static Node *ulong_num(int64_t v, Token *tok) { Node *n = new_num(v, tok); n->ty = ty_ulong; return n; }

static Node *user_call(Token *name, Node *call, Obj *fn);
/* a call of the host runtime's `fn` located at `at` (where a fault is reported) */
static Node *runtime_call(const char *fn, Token *at, Node *a, Node *b) {
  Obj *f = find_func(fn);
  if (!f) error_tok(at, "internal: the host runtime's '%s' is not declared", fn);
  Node *call = new_node(ND_CALL, at);
  call->args = a;
  call->nargs = 1 + (b != NULL);
  a->next = b;
  return user_call(at, call, f);
}

static bool side_effect(Node *n, void *ctx) {
  bool *found = ctx;
  bool runtime = n->kind == ND_CALL && n->fn && !strncmp(n->fn->name, "__carve_vla_", 12);
  if ((n->kind == ND_CALL && !runtime) || n->kind == ND_ASSIGN || n->kind == ND_ASSIGN_OP || n->kind == ND_PREINC ||
      n->kind == ND_PREDEC || n->kind == ND_POSTINC || n->kind == ND_POSTDEC)
    *found = true;
  return !*found;
}
static bool has_side_effect(Node *n) {
  bool found = false;
  walk_one(n, side_effect, NULL, &found);
  return found;
}

/* the size in bytes of t (size_t): a number, or for a VLA its hidden local or its expression */
static Node *vla_size(Type *t, Token *at) {
  if (!is_vla(t)) return ulong_num(t->size, at);
  Vla *v = vla_of(t);
  if (v && v->size) return new_var(v->size, at);
  if (!v || !v->len) error_tok(at, "unsupported: the size of this variable-length array type is not known here");
  if (has_side_effect(v->len))
    error_tok(v->len_tok, "unsupported: a side effect in the size of a variable-length array in a type name (it would be evaluated at every use)");
  return runtime_call("__carve_vla_size", v->len_tok, typed_cast(clone_node(v->len), ty_long), vla_size(t->base, at));
}

static Node *decl_node(Obj *v, Node *init, Token *tok) {
  Node *d = new_node(ND_DECL, tok);
  d->var = v;
  d->ty = v->ty;
  d->decl_init = v->init = init;
  return d;
}

/* a local of the current function that no name reaches */
static Obj *hidden_local(const char *name, Type *ty, Token *tok) {
  Obj *o = new_obj(arena_strdup(name), ty, tok, SC_LOCAL);
  Obj **pp = &cur_fn->locals;
  while (*pp) pp = &(*pp)->next_local;
  *pp = o;
  return o;
}

/* the sizes of the VLAs in t not yet evaluated (innermost first), each into a hidden local
 * declared at *cur (the declaration's list) */
static void vla_materialize(Type *t, Token *at, Node **cur) {
  if (!t || (t->kind != TY_PTR && t->kind != TY_ARRAY)) return;
  vla_materialize(t->base, at, cur);
  Vla *v = is_vla(t) ? vla_of(t) : NULL;
  if (!v || v->size) return;
  Node *init = vla_size(t, at);
  v->size = hidden_local("(VLA size)", ty_ulong, v->len_tok ? v->len_tok : at);
  *cur = (*cur)->next = decl_node(v->size, init, at);
}

/* `T v[n]...;` in a host function: v's storage from the host runtime, through a hidden pointer
 * named v (messages name the allocation by it) */
static Node *vla_local(Type *ty, Token *name, Token *tok) {
  if (tok_equal(tok, "=")) error_tok(tok, "a variable-length array cannot be initialized");
  VarScope *prev = find_in_current(name);
  if (prev && prev->var) error_tok(name, "redefinition of '%.*s'", name->len, name->loc);
  Obj *p = hidden_local(tok_text(name), pointer_to(ty), name);
  vla_fn.tail = vla_fn.tail->next = decl_node(p, typed_cast(new_num(0, name), p->ty), name);
  vla_fn.arrays = xrealloc(vla_fn.arrays, sizeof(Obj *) * (size_t)(vla_fn.narrays + 1));
  vla_fn.arrays[vla_fn.narrays++] = p;
  VarScope *vs = push_scope(tok_text(name));
  vs->var = p;
  vs->vla_array = true;
  Node *alloc = runtime_call("__carve_vla_alloc", name, vla_size(ty, name), new_var(p, name));
  Node *set = new_binary(ND_ASSIGN, new_var(p, name), typed_cast(alloc, p->ty), name);
  add_type(set);
  Node *st = new_node(ND_EXPR_STMT, name);
  st->lhs = set;
  return st;
}

/* p + i rows (p a pointer to rows or an array of them), as a pointer to row */
static Node *vla_offset(Node *p, Node *i, bool sub, Type *row, Token *tok) {
  Node *bytes = new_binary(ND_MUL, typed_cast(i, ty_long), typed_cast(vla_size(row, tok), ty_long), tok);
  Node *sum = new_binary(sub ? ND_SUB : ND_ADD, typed_cast(p, pointer_to(ty_char)), bytes, tok);
  add_type(sum);
  return typed_cast(sum, pointer_to(row));
}

static Type *vla_row(Node *n) {
  add_type(n);
  return is_pointer_like(n->ty) && is_vla(n->ty->base) ? n->ty->base : NULL;
}

/* target op= step, ++target, target++ on a pointer to rows: an assignment (target is written
 * twice in the lowered form, so it must be free of side effects) */
static Node *vla_step(Node *n, Node *target, Node *step, bool sub, Type *row) {
  if (has_side_effect(target)) error_tok(n->tok, "unsupported: '%.*s' on a pointer to a variable-length array whose target has side effects", n->tok->len, n->tok->loc);
  Node *set = new_binary(ND_ASSIGN, target, vla_offset(clone_node(target), step, sub, row, n->tok), n->tok);
  add_type(set);
  if (n->kind != ND_POSTINC && n->kind != ND_POSTDEC) return set;
  Node *old = new_binary(ND_COMMA, set, vla_offset(clone_node(target), new_num(1, n->tok), !sub, row, n->tok), n->tok);
  add_type(old);
  return old;
}

/* an expression that needs a VLA's size, in byte arithmetic; anything else unchanged */
static Node *vla_lower(Node *n) {
  if (!in_host_fn()) return n;
  Token *tok = n->tok;
  Type *row;
  switch (n->kind) {
  case ND_INDEX: {
    if (!vla_row(n->lhs) && vla_row(n->rhs)) { Node *t = n->lhs; n->lhs = n->rhs; n->rhs = t; }
    if (!(row = vla_row(n->lhs))) return n;
    add_type(n->rhs);
    if (!is_integer(n->rhs->ty)) error_tok(n->rhs->tok, "array subscript is not an integer ('%s')", type_name(n->rhs->ty));
    Node *d = new_unary(ND_DEREF, vla_offset(n->lhs, n->rhs, false, row, tok), tok);
    d->end_tok = n->end_tok;
    add_type(d);
    return d;
  }
  case ND_ADD: case ND_SUB: {
    bool sub = n->kind == ND_SUB;
    Type *l = vla_row(n->lhs), *r = vla_row(n->rhs);
    if (!l && !r) return n;
    if (l && r && sub) {   /* rows between two pointers */
      Node *d = new_binary(ND_SUB, typed_cast(n->lhs, pointer_to(ty_char)), typed_cast(n->rhs, pointer_to(ty_char)), tok);
      Node *q = new_binary(ND_DIV, d, typed_cast(vla_size(l, tok), ty_long), tok);
      add_type(q);
      return q;
    }
    if (l && is_integer(n->rhs->ty)) return vla_offset(n->lhs, n->rhs, sub, l, tok);
    if (r && !sub && is_integer(n->lhs->ty)) return vla_offset(n->rhs, n->lhs, false, r, tok);
    return n;   /* type.c says what is wrong */
  }
  case ND_ASSIGN_OP:
    if ((n->op != ND_ADD && n->op != ND_SUB) || !(row = vla_row(n->lhs)) || n->lhs->ty->kind != TY_PTR) return n;
    add_type(n->rhs);
    if (!is_integer(n->rhs->ty)) return n;
    return vla_step(n, n->lhs, n->rhs, n->op == ND_SUB, row);
  case ND_PREINC: case ND_PREDEC: case ND_POSTINC: case ND_POSTDEC:
    if (!(row = vla_row(n->lhs)) || n->lhs->ty->kind != TY_PTR) return n;
    return vla_step(n, n->lhs, new_num(1, tok), n->kind == ND_PREDEC || n->kind == ND_POSTDEC, row);
  default:
    return n;
  }
}

/* sizeof of a VLA type or of an expression of one: its size (the operand evaluated first when
 * it has side effects, as C evaluates it) */
static Node *vla_sizeof(Node *n, Node *e) {
  Node *size = vla_size(n->cast_ty, n->tok);
  if (!e || !has_side_effect(e)) return size;
  Node *c = new_binary(ND_COMMA, typed_cast(e, ty_void), size, n->tok);
  add_type(c);
  return c;
}

/* a parameter's array count: parsed where the earlier parameters are names (placeholders:
 * function() parses a count that is not constant again among the real parameters) */
static Node *param_dim(Token **rest, Token *tok) {
  enter_scope();
  for (Type *p = vla_param_head->next; p; p = p->next)
    if (p->name) push_scope(tok_text(p->name))->var = new_obj(tok_text(p->name), p, p->name, SC_PARAM);
  Node *e = conditional(rest, tok);
  add_type(e);
  leave_scope();
  return e;
}

/* function(): the counts of parameter p's VLAs, among the parameters before it */
static void vla_param_counts(Type *p, bool host) {
  for (Type *t = p; t && (t->kind == TY_PTR || t->kind == TY_ARRAY); t = t->base) {
    Vla *v = is_vla(t) ? vla_of(t) : NULL;
    if (!v || v->len) continue;
    if (!host) error_tok(v->len_tok ? v->len_tok : p->name, "array size is not an integer constant (variable-length arrays are not CUDA)");
    if (!v->len_tok) error_tok(p->name, "'[*]' is allowed in a function prototype only, not in its definition");
    Token *end;
    v->len = conditional(&end, v->len_tok);
    add_type(v->len);
  }
}

/* at the start of a host function's body: the parameters' sizes; its local VLAs come later */
static void vla_function_start(Type *fnty) {
  free(vla_fn.arrays);
  memset(&vla_fn, 0, sizeof vla_fn);
  vla_fn.tail = &vla_fn.head;
  for (Type *p = fnty->params; p; p = p->next) vla_materialize(p, p->name, &vla_fn.tail);
}

typedef struct { Node **v; int n; } NodeList;
static bool find_return(Node *n, void *ctx) {
  NodeList *l = ctx;
  if (n->kind != ND_RETURN) return true;
  l->v = xrealloc(l->v, sizeof(Node *) * (size_t)(l->n + 1));
  l->v[l->n++] = n;
  return true;
}

/* __carve_vla_free of every local VLA, as statements */
static Node *vla_frees(Token *at) {
  Node head = {0}, *cur = &head;
  for (int i = 0; i < vla_fn.narrays; i++) {
    Node *st = new_node(ND_EXPR_STMT, at);
    st->lhs = runtime_call("__carve_vla_free", at, new_var(vla_fn.arrays[i], at), NULL);
    cur = cur->next = st;
  }
  return head.next;
}

/* at the end of a host function's body: the hidden declarations first; with local VLAs, each
 * `return e;` becomes { T r = e; free...; return r; } and the end of the body frees them too */
static void vla_function_end(Node *body) {
  if (vla_fn.head.next) {
    vla_fn.tail->next = body->stmts;
    body->stmts = vla_fn.head.next;
  }
  if (vla_fn.narrays) {
    NodeList rets = {0};
    walk(body->stmts, find_return, NULL, &rets);
    for (int i = 0; i < rets.n; i++) {
      Node *r = rets.v[i], *ret = new_node(ND_RETURN, r->tok), *frees = vla_frees(r->tok), *last = frees;
      while (last->next) last = last->next;
      last->next = ret;
      if (r->lhs) {
        Obj *t = hidden_local("(return value)", unqual(cur_fn->ty->return_ty), r->tok);
        Node *d = decl_node(t, r->lhs, r->tok);
        ret->lhs = new_var(t, r->tok);
        d->next = frees;
        frees = d;
      }
      r->kind = ND_BLOCK;
      r->lhs = NULL;
      r->stmts = frees;
      r->end_tok = r->tok;
    }
    free(rets.v);
    Node **end = &body->stmts;
    while (*end) end = &(*end)->next;
    *end = vla_frees(body->end_tok ? body->end_tok : body->tok);
  }
  free(vla_fn.arrays);
  memset(&vla_fn, 0, sizeof vla_fn);
}

/* array-dims = ("[" const-expr? "]")*
 * host code: a count known only at run time makes a variable-length array; in a host
 * function's parameters, one naming earlier parameters waits for function() (vla_param_counts) */
static Type *array_dims(Token **rest, Token *tok, Type *ty) {
  bool params = vla_param_head && vla_host_decl && !cur_fn;
  /* C99 parameters: `b[restrict n]`, `a[static 4]` (the qualifiers are the adjusted pointer's) */
  while (params && (tok_equal(tok, "restrict") || tok_equal(tok, "__restrict__") || tok_equal(tok, "__restrict") ||
                    tok_equal(tok, "const") || tok_equal(tok, "volatile") || tok_equal(tok, "static")))
    tok = tok->next;
  if (tok_equal(tok, "]")) {
    ty = abstract_declarator(&tok, tok->next, ty);
    *rest = tok;
    return array_of(ty, -1);
  }
  Token *len_tok = tok;
  Node *e = NULL;
  if (params && tok_equal(tok, "*") && tok_equal(tok->next, "]")) {   /* [*]: a prototype's VLA */
    len_tok = NULL;
    tok = tok->next;
  } else {
    e = params ? param_dim(&tok, tok) : conditional(&tok, tok);
    add_type(e);
    if (!is_integer(e->ty)) error_tok(e->tok, "size of array has non-integer type '%s'", type_name(e->ty));
  }
  int64_t len = 0;
  bool constant = e && eval_const(e, &len);
  if (!constant && !params && !in_host_fn()) error_tok(e->tok, "array size is not an integer constant (variable-length arrays are not CUDA)");
  if (constant && len <= 0) error_tok(e->tok, "array size must be positive (is %lld)", (long long)len);
  if (constant && len > (1 << 28)) error_tok(e->tok, "array size %lld is too large", (long long)len);
  tok = skip(tok, "]");
  if (tok_equal(tok, "[")) {
    nest_enter(tok, "array declarator");
    ty = array_dims(&tok, tok->next, ty);
    nest_leave();
  }
  *rest = tok;
  if (!constant || is_vla(ty)) return vla_type(ty, constant || !params ? e : NULL, len_tok);
  if ((int64_t)ty->size * len > (1LL << 31)) error_tok(e->tok, "array is too large");
  return array_of(ty, (int)len);
}

/* type-suffix = "(" func-params | "[" array-dims | ε */
static Type *type_suffix(Token **rest, Token *tok, Type *ty) {
  if (tok_equal(tok, "(")) return func_params(rest, tok->next, ty);
  if (tok_equal(tok, "[")) return array_dims(rest, tok->next, ty);
  *rest = tok;
  return ty;
}

/* pointers = ("*" ("const" | "volatile" | "restrict" | "__restrict__")*)* */
static Type *pointers(Token **rest, Token *tok, Type *ty) {
  while (tok_equal(tok, "*") || tok_equal(tok, "&") || tok_equal(tok, "&&")) {
    if (tok_equal(tok, "&&")) error_tok(tok, "unsupported C++: rvalue references");
    if (tok_equal(tok, "&") && tok_equal(tok->next, "&")) error_tok(tok, "unsupported C++: rvalue references");
    bool ref = tok_equal(tok, "&");
    if (ref && ty->is_ref) error_tok(tok, "a reference to a reference");
    ty = pointer_to(ty);
    ty->is_ref = ref;
    tok = tok->next;
    for (;;) {
      if (tok_equal(tok, "const")) ty->qual |= Q_CONST;
      else if (tok_equal(tok, "volatile")) ty->qual |= Q_VOLATILE;
      else if (tok_equal(tok, "restrict") || tok_equal(tok, "__restrict__") || tok_equal(tok, "__restrict")) ty->qual |= Q_RESTRICT;
      else break;
      tok = tok->next;
    }
  }
  *rest = tok;
  return ty;
}

/* declarator = pointers ("(" declarator ")" | ident)? type-suffix */
static Type *declarator(Token **rest, Token *tok, Type *ty) {
  ty = pointers(&tok, tok, ty);
  if (tok_equal(tok, "(") && !is_typename(tok->next) && !tok_equal(tok->next, ")")) {
    Token *start = tok;
    nest_enter(tok, "declarator");
    /* the suffix after the parenthesized part applies first: find its end by balancing the
     * parentheses (parsing the inner declarator twice, as chibicc does, costs 2^depth) */
    int depth = 0;
    for (; tok->kind != TK_EOF; tok = tok->next) {
      if (tok_equal(tok, "(") && nest_depth + ++depth > LIMIT_EXPR_NESTING)
        error_tok(tok, "declarator nested too deeply " LIMIT_NOTE(LIMIT_EXPR_NESTING), LIMIT_EXPR_NESTING);
      else if (tok_equal(tok, ")") && --depth == 0) break;
    }
    if (tok->kind == TK_EOF) error_tok(start, "unbalanced '(' in a declarator");
    ty = type_suffix(rest, tok->next, ty);
    ty = declarator(&tok, start->next, ty);
    skip(tok, ")");
    nest_leave();
    return ty;
  }
  Token *name = NULL;
  if (tok->kind == TK_IDENT) { name = tok; tok = tok->next; }
  else if (tok->kind == TK_KEYWORD && !tok_equal(tok, "(") ) {
    if (tok_equal(tok, "operator")) error_tok(tok, "unsupported C++: operator overloading");
  }
  if (tok_equal(tok, "::")) error_tok(tok, "unsupported C++: qualified names ('::')");
  if (tok_equal(tok, "<")) error_tok(tok, "unsupported C++: templates");
  ty = type_suffix(rest, tok, ty);
  ty = copy_type(ty);
  ty->origin = ty->origin ? ty->origin : NULL;
  ty->name = name;
  return ty;
}

/* abstract-declarator = pointers ("(" abstract-declarator ")")? type-suffix */
static Type *abstract_declarator(Token **rest, Token *tok, Type *ty) {
  ty = pointers(&tok, tok, ty);
  if (tok_equal(tok, "(") && !is_typename(tok->next) && !tok_equal(tok->next, ")")) {
    Token *start = tok;
    Type dummy = {0};
    nest_enter(tok, "declarator");
    abstract_declarator(&tok, start->next, &dummy);
    tok = skip(tok, ")");
    ty = type_suffix(rest, tok, ty);
    ty = abstract_declarator(&tok, start->next, ty);
    nest_leave();
    return ty;
  }
  return type_suffix(rest, tok, ty);
}

/* type-name = declspec abstract-declarator */
static Type *typename_(Token **rest, Token *tok) {
  Type *ty = declspec(&tok, tok, NULL);
  return abstract_declarator(rest, tok, ty);
}

static bool is_typename(Token *tok) {
  static const char *kw[] = {
    "void", "_Bool", "bool", "char", "short", "int", "long", "struct", "union", "typedef", "enum",
    "static", "extern", "signed", "unsigned", "const", "volatile", "restrict", "__restrict__",
    "__restrict", "float", "double", "inline", "__inline__", "register", "constexpr", "__align__",
    "_Alignas", "alignas", "__global__", "__device__", "__host__", "__shared__", "__constant__",
    "__forceinline__", "__noinline__", "__launch_bounds__", "auto", "class", "__grid_constant__",
  };
  if (tok->kind == TK_KEYWORD || tok->kind == TK_IDENT)
    for (size_t i = 0; i < sizeof kw / sizeof *kw; i++)
      if (tok_equal(tok, kw[i])) return true;
  return find_typedef(tok) != NULL;
}

/* ---------------- initializers ---------------- */

/* the initializer converted to ty as an assignment converts */
static Node *coerce_init(Node *e, Type *ty) {
  Node *fake = new_node(ND_VAR, e->tok);
  Obj tmp = {0};
  tmp.ty = unqual(ty);
  fake->var = &tmp;
  fake->ty = unqual(ty);
  Node *a = new_binary(ND_ASSIGN, fake, e, e->tok);
  add_type(a);
  return a->rhs;
}

/* initializer = "{" (initializer ("," initializer)* ","?)? "}" | assign */
static Node *initializer_at(Token **rest, Token *tok, Type *ty);
static Node *initializer(Token **rest, Token *tok, Type *ty) {
  nest_enter(tok, "initializer");
  Node *n = initializer_at(rest, tok, ty);
  nest_leave();
  return n;
}

static Node *initializer_at(Token **rest, Token *tok, Type *ty) {
  if (tok_equal(tok, "{")) {
    Node *list = new_node(ND_INIT_LIST, tok);
    list->ty = ty;
    tok = tok->next;
    Node head = {0}, *cur = &head;
    int count = 0;
    Member *mem = ty->kind == TY_STRUCT ? ty->members : NULL;
    if (ty->kind != TY_ARRAY && ty->kind != TY_STRUCT) {
      /* scalar in braces */
      Node *e = assign(&tok, tok);
      add_type(e);
      consume(&tok, tok, ",");
      *rest = skip(tok, "}");
      return e;
    }
    while (!tok_equal(tok, "}")) {
      if (count) { tok = skip(tok, ","); if (tok_equal(tok, "}")) break; }
      if (tok_equal(tok, ".") || tok_equal(tok, "[")) error_tok(tok, "unsupported: designated initializers");
      Type *et;
      if (ty->kind == TY_ARRAY) {
        if (ty->array_len >= 0 && count >= ty->array_len) error_tok(tok, "excess elements in array initializer");
        et = ty->base;
      } else {
        if (!mem) error_tok(tok, "excess elements in struct initializer");
        et = mem->ty;
        mem = mem->next;
      }
      cur = cur->next = initializer(&tok, tok, et);
      count++;
    }
    list->elems = head.next;
    list->ival = count;
    list->end_tok = tok;
    *rest = tok->next;
    return list;
  }
  Node *e = assign(rest, tok);
  add_type(e);
  if (ty->kind == TY_ARRAY) error_tok(e->tok, "array must be initialized with a brace-enclosed list");
  return coerce_init(e, ty);
}

/* ---------------- declarations inside functions ---------------- */
static void check_local_type(Type *ty, Token *tok) {
  if (ty->kind == TY_VOID) error_tok(tok, "variable '%.*s' has incomplete type 'void'", tok->len, tok->loc);
  if (ty->kind == TY_STRUCT && ty->size < 0) error_tok(tok, "variable '%.*s' has incomplete type '%s'", tok->len, tok->loc, type_name(ty));
}


static bool lvalue_node(Node *n) {
  return n->kind == ND_VAR || n->kind == ND_DEREF || n->kind == ND_INDEX || (n->kind == ND_MEMBER && (n->arrow || lvalue_node(n->lhs)));
}

/* `auto` takes the initializer's type (arrays decay, top-level const drops unless written) */
static Type *deduce(Type *declared, Type *init, Token *at) {
  if (is_auto(declared)) {
    Type *t = init->kind == TY_ARRAY ? pointer_to(init->base) : unqual(init);
    if (t->kind == TY_VOID) error_tok(at, "cannot deduce 'auto' from a void expression");
    return qualified(t, declared->qual);
  }
  if (declared->kind == TY_PTR) {
    Type *b = declared->is_ref ? init : init->kind == TY_PTR || init->kind == TY_ARRAY ? init->base : NULL;
    if (!b) error_tok(at, "cannot deduce '%s' from '%s'", declared->is_ref ? "auto &" : "auto *", type_name(init));
    if (declared->is_ref && b->kind == TY_ARRAY) error_tok(at, "unsupported C++: a reference to an array");
    Type *t = pointer_to(deduce(declared->base, b, at));
    t->is_ref = declared->is_ref;
    t->qual = declared->qual;
    return t;
  }
  return declared;
}

/* a local with `auto` or a reference: its type from the initializer; a reference binds the
 * address of an lvalue (const T& of an rvalue holds the value) */
static Type *bind_local(Type *ty, Node **init, Token *name) {
  Token *nm = ty->name;
  if (has_auto(ty)) ty = deduce(ty, (*init)->ty, (*init)->tok);
  if (ty->is_ref && ty->kind == TY_PTR) {
    if (!lvalue_node(*init)) {
      if (!(ty->base->qual & Q_CONST)) error_tok((*init)->tok, "a non-const reference needs an lvalue to bind to");
      ty = copy_type(ty->base);
      ty->is_ref = true;
    } else {
      Node *a = new_unary(ND_ADDR, *init, (*init)->tok);
      a->implicit = true;
      add_type(a);
      *init = a;
    }
  }
  *init = coerce_init(*init, ty);
  ty = copy_type(ty);
  ty->name = nm ? nm : name;
  return ty;
}

/* declaration = declspec (declarator ("=" initializer)? ("," declarator ("=" initializer)?)*)? ";" */
static Node *declaration(Token **rest, Token *tok, Type *base, VarAttr *attr) {
  Node head = {0}, *cur = &head;
  bool first = true;
  while (!tok_equal(tok, ";")) {
    if (!first) tok = skip(tok, tok_equal(tok, ",") ? "," : ";");
    if (is_dim3(base) && !attr->is_typedef && !attr->shared && in_host_fn()) {
      cur = cur->next = dim3_declarator(&tok, tok, base);
      cur->ival = first ? 0 : 1;
      first = false;
      continue;
    }
    Type *ty;
    if ((base->is_vector || base->is_half) && tok->kind == TK_IDENT && tok_equal(tok->next, "(") && !is_typename(tok->next->next)) {
      ty = copy_type(base);   /* C++ constructor syntax: dim3 grid(16, 16); */
      ty->name = tok;
      tok = tok->next;
    } else {
      ty = declarator(&tok, tok, base);
    }
    Token *name = ty->name;
    if (!name) error_tok(tok, "expected a variable name");
    if (ty->kind == TY_FUNC) error_tok(name, "unsupported: function declarations inside a function");
    if (has_vla(ty)) {   /* C99: its sizes evaluated now; a local array's storage allocated */
      if (!in_host_fn()) error_tok(name, "variable-length arrays are not CUDA (only host code may declare them)");
      if (attr->shared || attr->is_static || attr->is_extern) error_tok(name, "a variable-length array type needs an automatic variable");
      vla_materialize(ty, name, &cur);
      if (!attr->is_typedef && is_vla(ty)) {
        cur = cur->next = vla_local(ty, name, tok);
        first = false;
        continue;
      }
    }
    if (attr->is_typedef) {
      Type *t = copy_type(ty);
      t->typedef_name = tok_text(name);
      push_scope(tok_text(name))->type_def = t;
      first = false;
      continue;
    }
    if (attr->is_static && !attr->shared) error_tok(name, "unsupported: static local variables in device code");
    if (attr->constant) error_tok(name, "__constant__ variables must be declared at file scope");
    if (attr->global || attr->host || attr->device) error_tok(attr->cuda_tok, "'%.*s' is not allowed on a local variable", attr->cuda_tok->len, attr->cuda_tok->loc);
    StorageClass sc = SC_LOCAL;
    if (attr->shared) sc = attr->is_extern ? SC_EXTERN_SHARED : SC_SHARED;
    else if (attr->is_extern) error_tok(name, "unsupported: extern local variables");
    if (sc == SC_LOCAL && ty->kind == TY_ARRAY && ty->array_len < 0 && !tok_equal(tok, "="))
      error_tok(name, "array '%.*s' needs an explicit size or an initializer", name->len, name->loc);
    if (sc == SC_EXTERN_SHARED && !(ty->kind == TY_ARRAY && ty->array_len < 0))
      error_tok(name, "extern __shared__ variable must be an array of unspecified size");
    if (sc != SC_LOCAL && (has_auto(ty) || ty->is_ref)) error_tok(name, "a __shared__ variable cannot be %s", ty->is_ref ? "a reference" : "'auto'");
    if (sc != SC_EXTERN_SHARED && !has_auto(ty) && !(ty->kind == TY_ARRAY && ty->array_len < 0 && tok_equal(tok, "=")))
      check_local_type(ty, name);
    Node *init = NULL;
    if (ty->is_vector && tok_equal(tok, "(") && sc == SC_LOCAL) {   /* C++: dim3 grid(16, 16); */
      Token *tn = arena_alloc(sizeof(Token));   /* printed as "dim3 grid = dim3(16, 16, 1)" */
      *tn = *name;
      tn->loc = (char *)(ty->typedef_name ? ty->typedef_name : ty->tag);
      tn->len = (int)strlen(tn->loc);
      tn->origin = name;
      tn->macro = NULL;
      Node *call = new_node(ND_CALL, tn);
      call->args = func_args(&tok, tok->next, call);
      init = coerce_init(make_vector_call(name, ty, call), ty);
    } else if (ty->is_half && ty->kind != TY_ARRAY && tok_equal(tok, "(") && sc == SC_LOCAL) {
      /* C++: __half h(1.0f); half2 v(a, b) is cuda_fp16.hpp's __half2(const __half &, const __half &),
       * written as __halves2half2 (printed so) */
      Node *call = new_node(ND_CALL, name);
      call->args = func_args(&tok, tok->next, call);
      if (ty->is_half == 1) {
        if (call->nargs != 1) error_tok(name, "a __half is constructed from one value, not %d", call->nargs);
        init = coerce_init(call->args, ty);
      } else {
        if (call->nargs != 2) error_tok(name, "a __half2 is constructed from two __half values, not %d", call->nargs);
        Token *tn = arena_alloc(sizeof(Token));
        *tn = *name;
        tn->loc = "__halves2half2";
        tn->len = 14;
        tn->origin = name;
        tn->macro = NULL;
        call->tok = tn;
        init = coerce_init(half2_ctor(tn, call), ty);
      }
    }
    if ((has_auto(ty) || ty->is_ref) && sc == SC_LOCAL) {
      if (!tok_equal(tok, "=")) error_tok(name, has_auto(ty) ? "declaration with 'auto' needs an initializer" : "a reference needs an initializer");
      init = assign(&tok, tok->next);
      add_type(init);
      ty = bind_local(ty, &init, name);
    }
    Obj *var = new_local(tok_text(name), ty, name, sc);
    var->is_const_decl = attr->is_const;
    var->is_volatile = (ty->qual & Q_VOLATILE) != 0;
    var->align = attr->align;
    Node *d = new_node(ND_DECL, name);
    d->var = var;
    d->ty = ty;
    d->ival = first ? 0 : 1;   /* 1: continues the declaration before it ("int a, b") */
    if (init) {
      d->decl_init = var->init = init;
    } else if (tok_equal(tok, "=")) {
      if (sc != SC_LOCAL) error_tok(tok, "initializer is not allowed on a __shared__ variable");
      d->decl_init = initializer(&tok, tok->next, ty);
      if (ty->kind == TY_ARRAY && ty->array_len < 0) {
        var->ty = array_of(ty->base, (int)d->decl_init->ival);
        var->ty->name = name;
        d->ty = var->ty;
      }
      var->init = d->decl_init;
    }
    first = false;
    cur = cur->next = d;
  }
  *rest = tok->next;
  return head.next;
}

/* ---------------- statements ---------------- */
static bool is_loop_start(Token *tok) {
  return tok_equal(tok, "for") || tok_equal(tok, "while") || tok_equal(tok, "do");
}

/* a "#pragma unroll [N]" token before a loop */
static int parse_unroll(Token *p) {
  if (!p->pragma_toks && p->str) {
    const char *s = p->str;
    while (*s == ' ' || *s == '\t') s++;
    if (strncmp(s, "unroll", 6)) return 0;
    s += 6;
    while (*s == ' ' || *s == '\t' || *s == '(') s++;
    if (!*s) return -1;
    char *end;
    long v = strtol(s, &end, 0);
    if (end == s) {
      /* "#pragma unroll N" with N a macro: the pragma text is not expanded; look it up */
      char name[64];
      int n = 0;
      while ((s[n] == '_' || (s[n] >= 'a' && s[n] <= 'z') || (s[n] >= 'A' && s[n] <= 'Z') || (n && s[n] >= '0' && s[n] <= '9')) && n < 63) { name[n] = s[n]; n++; }
      name[n] = 0;
      int64_t mv;
      if (n && pp_macro_value(name, &mv) && mv > 0) return (int)mv;
      /* C++: a template's value parameter, or a constexpr variable */
      VarScope *vs = n ? find_var_n(name, n) : NULL;
      if (vs && vs->tparam && vs->enum_val > 0) return (int)vs->enum_val;
      if (vs && vs->var && vs->var->is_const_decl && vs->var->init && eval_const(vs->var->init, &mv) && mv > 0) return (int)mv;
      warn_tok(p, "'#pragma unroll' expects a positive integer constant; ignored");
      return 0;
    }
    if (v <= 0) { warn_tok(p, "'#pragma unroll %ld' needs a positive count; ignored", v); return 0; }
    return (int)v;
  }
  return 0;
}

/* past balanced brackets starting at an opening one */
static Token *skip_balanced(Token *tok) {
  int depth = 0;
  for (; tok->kind != TK_EOF; tok = tok->next) {
    if (tok_equal(tok, "{") || tok_equal(tok, "(") || tok_equal(tok, "[")) depth++;
    else if ((tok_equal(tok, "}") || tok_equal(tok, ")") || tok_equal(tok, "]")) && --depth == 0) return tok->next;
  }
  error_tok(tok, "expected a statement at end of input");
}

/* the tokens of one statement, unparsed */
static Token *skip_stmt(Token *tok) {
  if (tok_equal(tok, "{")) return skip_balanced(tok);
  if (tok_equal(tok, "if") || tok_equal(tok, "for") || tok_equal(tok, "while") || tok_equal(tok, "switch")) {
    bool is_if = tok_equal(tok, "if");
    tok = tok->next;
    if (is_if && tok_equal(tok, "constexpr")) tok = tok->next;
    if (!tok_equal(tok, "(")) error_tok(tok, "expected '('");
    tok = skip_stmt(skip_balanced(tok));
    return is_if && tok_equal(tok, "else") ? skip_stmt(tok->next) : tok;
  }
  if (tok_equal(tok, "do")) {
    tok = skip(skip_stmt(tok->next), "while");
    return skip(skip_balanced(tok), ";");
  }
  while (tok->kind != TK_EOF && !tok_equal(tok, ";"))
    tok = tok_equal(tok, "(") || tok_equal(tok, "[") || tok_equal(tok, "{") ? skip_balanced(tok) : tok->next;
  return skip(tok, ";");
}

/* C++17: if constexpr (CONST) A else B: the branch not taken is skipped unparsed (in a
 * template instance it may not compile for these arguments); the taken one is the statement */
static Node *stmt(Token **rest, Token *tok);
static Node *if_constexpr(Token **rest, Token *tok) {
  Token *at = tok;
  tok = skip(tok->next->next, "(");
  int64_t v = const_expr(&tok, tok);
  tok = skip(tok, ")");
  Node *taken = NULL;
  if (v) taken = stmt(&tok, tok);
  else tok = skip_stmt(tok);
  if (tok_equal(tok, "else")) {
    if (!v) taken = stmt(&tok, tok->next);
    else tok = skip_stmt(tok->next);
  }
  *rest = tok;
  if (taken) return taken;
  return new_node(ND_NULL_STMT, at);
}

/* stmt = "return" expr? ";" | "if" "(" expr ")" stmt ("else" stmt)? | "switch" "(" expr ")" stmt
 *      | "case" const-expr ":" stmt | "default" ":" stmt | "for" "(" for-init expr? ";" expr? ")" stmt
 *      | "while" "(" expr ")" stmt | "do" stmt "while" "(" expr ")" ";" | "break" ";" | "continue" ";"
 *      | pragma stmt | "{" compound-stmt | ";" | expr ";" */
static Node *stmt_at(Token **rest, Token *tok);
static Node *stmt(Token **rest, Token *tok) {
  if (++stmt_depth > LIMIT_STMT_NESTING) error_tok(tok, "statements nested too deeply " LIMIT_NOTE(LIMIT_STMT_NESTING), LIMIT_STMT_NESTING);
  Node *n = stmt_at(rest, tok);
  stmt_depth--;
  return n;
}

static Node *stmt_at(Token **rest, Token *tok) {
  if (tok->kind == TK_PRAGMA) {
    int unroll = parse_unroll(tok);
    if (unroll && is_loop_start(tok->next)) {
      Token *p = tok;
      Node *loop = stmt(rest, tok->next);
      loop->unroll = unroll;
      loop->pragma = p;
      return loop;
    }
    Node *n = new_node(ND_PRAGMA, tok);
    n->pragma = tok;
    *rest = tok->next;
    return n;
  }
  if (tok_equal(tok, "return")) {
    Node *n = new_node(ND_RETURN, tok);
    if (consume(rest, tok->next, ";")) {
      if (cur_fn->ty->return_ty->kind != TY_VOID) error_tok(tok, "non-void function '%s' should return a value", cur_fn->name);
      return n;
    }
    Node *e = expr(&tok, tok->next);
    add_type(e);
    if (cur_fn->ty->return_ty->kind == TY_VOID) error_tok(e->tok, "void function '%s' should not return a value", cur_fn->name);
    Node *fake = new_node(ND_VAR, e->tok);
    Obj tmp = {0};
    tmp.ty = unqual(cur_fn->ty->return_ty);
    fake->var = &tmp;
    fake->ty = tmp.ty;
    Node *a = new_binary(ND_ASSIGN, fake, e, e->tok);
    add_type(a);
    n->lhs = a->rhs;
    *rest = skip(tok, ";");
    return n;
  }
  if (tok_equal(tok, "if") && tok_equal(tok->next, "constexpr")) return if_constexpr(rest, tok);
  if (tok_equal(tok, "if")) {
    Node *n = new_node(ND_IF, tok);
    tok = skip(tok->next, "(");
    n->cond = expr(&tok, tok);
    add_type(n->cond);
    tok = skip(tok, ")");
    n->then = stmt(&tok, tok);
    if (tok_equal(tok, "else")) n->els = stmt(&tok, tok->next);
    *rest = tok;
    return n;
  }
  if (tok_equal(tok, "switch")) {
    Node *n = new_node(ND_SWITCH, tok);
    tok = skip(tok->next, "(");
    n->cond = expr(&tok, tok);
    add_type(n->cond);
    if (!is_integer(n->cond->ty)) error_tok(n->cond->tok, "switch quantity is not an integer");
    tok = skip(tok, ")");
    Node *sw = cur_switch;
    cur_switch = n;
    switch_depth++;
    n->case_next_depth = tok_equal(tok, "{") ? block_depth + 1 : block_depth;
    n->then = stmt(rest, tok);
    switch_depth--;
    cur_switch = sw;
    return n;
  }
  if (tok_equal(tok, "case") || tok_equal(tok, "default")) {
    if (!cur_switch) error_tok(tok, "'%.*s' label not within a switch statement", tok->len, tok->loc);
    Node *n = new_node(ND_CASE, tok);
    if (tok_equal(tok, "case")) {
      n->case_val = const_expr(&tok, tok->next);
      for (Node *c = cur_switch->cases; c; c = c->case_next)
        if (!c->is_default && c->case_val == n->case_val) error_tok(n->tok, "duplicate case value %lld", (long long)n->case_val);
    } else {
      n->is_default = true;
      for (Node *c = cur_switch->cases; c; c = c->case_next)
        if (c->is_default) error_tok(tok, "multiple default labels in one switch");
      tok = tok->next;
    }
    tok = skip(tok, ":");
    Node **pp = &cur_switch->cases;
    while (*pp) pp = &(*pp)->case_next;
    *pp = n;
    if (block_depth != cur_switch->case_next_depth)
      error_tok(n->tok, "unsupported: a case label inside a nested block of its switch (carve handles structured switches)");
    /* "case 1: case 2: s;" is two labels; the second is the next statement of the body */
    if (tok_equal(tok, "}") || tok_equal(tok, "case") || tok_equal(tok, "default")) {
      n->lhs = new_node(ND_NULL_STMT, tok);
      *rest = tok;
    } else {
      n->lhs = stmt(rest, tok);
    }
    return n;
  }
  if (tok_equal(tok, "for")) {
    Node *n = new_node(ND_FOR, tok);
    tok = skip(tok->next, "(");
    enter_scope();
    if (is_typename(tok)) {
      VarAttr attr = {0};
      Type *base = declspec(&tok, tok, &attr);
      if (attr.shared || attr.is_typedef || attr.is_static) error_tok(tok, "invalid declaration in a for-loop initializer");
      n->init = declaration(&tok, tok, base, &attr);
    } else if (!tok_equal(tok, ";")) {
      Node *e = new_node(ND_EXPR_STMT, tok);
      e->lhs = expr(&tok, tok);
      add_type(e->lhs);
      n->init = e;
      tok = skip(tok, ";");
    } else {
      tok = tok->next;
    }
    if (!tok_equal(tok, ";")) { n->cond = expr(&tok, tok); add_type(n->cond); }
    tok = skip(tok, ";");
    if (!tok_equal(tok, ")")) { n->inc = expr(&tok, tok); add_type(n->inc); }
    tok = skip(tok, ")");
    loop_depth++;
    n->then = stmt(rest, tok);
    loop_depth--;
    leave_scope();
    return n;
  }
  if (tok_equal(tok, "while")) {
    Node *n = new_node(ND_WHILE, tok);
    tok = skip(tok->next, "(");
    n->cond = expr(&tok, tok);
    add_type(n->cond);
    tok = skip(tok, ")");
    loop_depth++;
    n->then = stmt(rest, tok);
    loop_depth--;
    return n;
  }
  if (tok_equal(tok, "do")) {
    Node *n = new_node(ND_DO, tok);
    loop_depth++;
    n->then = stmt(&tok, tok->next);
    loop_depth--;
    tok = skip(tok, "while");
    tok = skip(tok, "(");
    n->cond = expr(&tok, tok);
    add_type(n->cond);
    tok = skip(tok, ")");
    *rest = skip(tok, ";");
    return n;
  }
  if (tok_equal(tok, "break")) {
    if (!loop_depth && !switch_depth) error_tok(tok, "'break' statement not in loop or switch statement");
    *rest = skip(tok->next, ";");
    return new_node(ND_BREAK, tok);
  }
  if (tok_equal(tok, "continue")) {
    if (!loop_depth) error_tok(tok, "'continue' statement not in loop statement");
    *rest = skip(tok->next, ";");
    return new_node(ND_CONTINUE, tok);
  }
  if (tok_equal(tok, "goto")) error_tok(tok, "unsupported: 'goto' (carve handles structured control flow only)");
  if (tok->kind == TK_IDENT && tok_equal(tok->next, ":") && !find_var(tok))
    error_tok(tok, "unsupported: labels and 'goto' (carve handles structured control flow only)");
  if (tok_equal(tok, "try") || tok_equal(tok, "throw")) error_tok(tok, "unsupported C++: exceptions");
  if (tok_equal(tok, "{")) return compound_stmt(rest, tok->next);
  if (tok_equal(tok, ";")) { *rest = tok->next; return new_node(ND_NULL_STMT, tok); }
  Node *n = new_node(ND_EXPR_STMT, tok);
  n->lhs = expr(&tok, tok);
  add_type(n->lhs);
  *rest = skip(tok, ";");
  return n;
}

/* compound-stmt = (declaration | stmt)* "}" */
static Node *compound_stmt(Token **rest, Token *tok) {
  Node *n = new_node(ND_BLOCK, tok->prev && tok_equal(tok->prev, "{") ? tok->prev : tok);
  Node head = {0}, *cur = &head;
  /* a function's outermost block is the parameters' scope (C11 6.2.1p4): no new scope */
  bool own_scope = !fn_body_pending;
  fn_body_pending = false;
  if (own_scope) enter_scope();
  block_depth++;
  while (!tok_equal(tok, "}")) {
    if (tok->kind == TK_EOF) error_tok(n->tok, "'{' is never closed");
    if (is_typename(tok) && !tok_equal(tok->next, ":") && !(find_typedef(tok) && tok_equal(tok->next, "("))) {
      VarAttr attr = {0};
      Type *base = declspec(&tok, tok, &attr);
      if (tok_equal(tok, ";") && !attr.is_typedef) { tok = tok->next; continue; } /* struct definition */
      cur->next = declaration(&tok, tok, base, &attr);
    } else {
      cur->next = stmt(&tok, tok);
    }
    while (cur->next) cur = cur->next;
  }
  if (own_scope) leave_scope();
  block_depth--;
  n->stmts = head.next;
  n->end_tok = tok;
  *rest = tok->next;
  return n;
}

/* ---------------- expressions ---------------- */

/* expr = assign ("," expr)? */
static Node *expr(Token **rest, Token *tok) {
  expr_open();
  Node *n = assign(&tok, tok);
  /* a, b, c is a, (b, c): built by a loop, not one call per comma */
  for (Node **hole = &n; tok_equal(tok, ",");) {
    *hole = new_binary(ND_COMMA, *hole, NULL, tok);
    hole = &(*hole)->rhs;
    *hole = assign(&tok, tok->next);
  }
  *rest = tok;
  return expr_close(n);
}

/* assign = conditional (assign-op assign)?
 * assign-op = "=" | "+=" | "-=" | "*=" | "/=" | "%=" | "&=" | "|=" | "^=" | "<<=" | ">>=" */
static Node *assign(Token **rest, Token *tok) {
  nest_enter(tok, "expression");
  expr_open();
  Node *n = assign_rhs(rest, tok);
  nest_leave();
  return expr_close(n);
}

static Node *assign_rhs(Token **rest, Token *tok) {
  Node *n = conditional(&tok, tok);
  static const struct { const char *op; NodeKind k; } ops[] = {
    {"+=", ND_ADD}, {"-=", ND_SUB}, {"*=", ND_MUL}, {"/=", ND_DIV}, {"%=", ND_MOD}, {"&=", ND_BITAND},
    {"|=", ND_BITOR}, {"^=", ND_BITXOR}, {"<<=", ND_SHL}, {">>=", ND_SHR}};
  if (tok_equal(tok, "=")) return new_binary(ND_ASSIGN, n, assign(rest, tok->next), tok);
  for (size_t i = 0; i < sizeof ops / sizeof *ops; i++)
    if (tok_equal(tok, ops[i].op)) {
      Node *a = new_binary(ND_ASSIGN_OP, n, assign(rest, tok->next), tok);
      a->op = ops[i].k;
      return vla_lower(a);
    }
  *rest = tok;
  return n;
}

static Node *logor(Token **rest, Token *tok);

/* conditional = logor ("?" expr ":" conditional)? */
static Node *conditional(Token **rest, Token *tok) {
  expr_open();
  Node *c = logor(&tok, tok);
  if (!tok_equal(tok, "?")) { *rest = tok; return expr_close(c); }
  Node *n = new_node(ND_COND, tok);
  n->cond = c;
  n->then = expr(&tok, tok->next);
  tok = skip(tok, ":");
  nest_enter(tok, "expression");
  n->els = conditional(rest, tok);
  nest_leave();
  return expr_close(n);
}

/* binary levels, lowest first */
typedef struct { const char *op; NodeKind kind; } BinOp;
static const BinOp lv_logor[] = {{"||", ND_LOGOR}, {0}}, lv_logand[] = {{"&&", ND_LOGAND}, {0}},
  lv_bitor[] = {{"|", ND_BITOR}, {0}}, lv_bitxor[] = {{"^", ND_BITXOR}, {0}}, lv_bitand[] = {{"&", ND_BITAND}, {0}},
  lv_eq[] = {{"==", ND_EQ}, {"!=", ND_NE}, {0}},
  lv_rel[] = {{"<", ND_LT}, {"<=", ND_LE}, {">", ND_GT}, {">=", ND_GE}, {0}},
  lv_shift[] = {{"<<", ND_SHL}, {">>", ND_SHR}, {0}}, lv_add[] = {{"+", ND_ADD}, {"-", ND_SUB}, {0}},
  lv_mul[] = {{"*", ND_MUL}, {"/", ND_DIV}, {"%", ND_MOD}, {0}};
static const BinOp *levels[] = {lv_logor, lv_logand, lv_bitor, lv_bitxor, lv_bitand, lv_eq, lv_rel, lv_shift, lv_add, lv_mul};

/* logor = logand ("||" logand)*   ...   mul = cast (("*" | "/" | "%") cast)*  (one rule per level) */
static Node *binary_level(Token **rest, Token *tok, int level) {
  if (level == 10) return cast(rest, tok);
  Node *n = binary_level(&tok, tok, level + 1);
  for (;;) {
    const BinOp *hit = NULL;
    for (const BinOp *b = levels[level]; b->op; b++)
      if (tok_equal(tok, b->op)) hit = b;
    if (!hit) break;
    Token *op = tok;
    n = new_binary(hit->kind, n, binary_level(&tok, tok->next, level + 1), op);
    if (hit->kind == ND_ADD || hit->kind == ND_SUB) n = vla_lower(n);
  }
  *rest = tok;
  return n;
}
static Node *logor(Token **rest, Token *tok) { return binary_level(rest, tok, 0); }

/* cast = "(" type-name ")" cast | unary */
static Node *cast_at(Token **rest, Token *tok);
static Node *cast(Token **rest, Token *tok) {
  if (!tok_equal(tok, "(") || !is_typename(tok->next)) return unary(rest, tok);
  nest_enter(tok, "expression");
  Node *n = cast_at(rest, tok);
  nest_leave();
  return n;
}

static Node *cast_at(Token **rest, Token *tok) {
  if (tok_equal(tok, "(") && is_typename(tok->next)) {
    Token *start = tok;
    Type *ty = typename_(&tok, tok->next);
    tok = skip(tok, ")");
    if (tok_equal(tok, "{")) error_tok(tok, "unsupported: compound literals");
    Node *n = new_node(ND_CAST, start);
    n->lhs = cast(rest, tok);
    n->cast_ty = ty;
    add_type(n->lhs);
    return n;
  }
  return unary(rest, tok);
}

/* unary = ("+" | "-" | "*" | "&" | "!" | "~") cast | ("++" | "--") unary
 *       | "sizeof" "(" type-name ")" | "sizeof" unary | postfix */
static Node *unary_at(Token **rest, Token *tok);
static Node *unary(Token **rest, Token *tok) {
  /* prefix operators recurse; a postfix expression does not (its parentheses count in assign) */
  static const char *prefix[] = {"+", "-", "&", "*", "!", "~", "++", "--", "sizeof", "&&", "new", "delete"};
  bool is_prefix = false;
  for (size_t i = 0; i < sizeof prefix / sizeof *prefix; i++) is_prefix |= tok_equal(tok, prefix[i]);
  if (!is_prefix) return postfix(rest, tok);
  nest_enter(tok, "expression");
  Node *n = unary_at(rest, tok);
  nest_leave();
  return n;
}

static Node *unary_at(Token **rest, Token *tok) {
  if (tok_equal(tok, "+")) return new_unary(ND_POS, cast(rest, tok->next), tok);
  if (tok_equal(tok, "-")) return new_unary(ND_NEG, cast(rest, tok->next), tok);
  if (tok_equal(tok, "&")) return new_unary(ND_ADDR, cast(rest, tok->next), tok);
  if (tok_equal(tok, "*")) return new_unary(ND_DEREF, cast(rest, tok->next), tok);
  if (tok_equal(tok, "!")) return new_unary(ND_NOT, cast(rest, tok->next), tok);
  if (tok_equal(tok, "~")) return new_unary(ND_BITNOT, cast(rest, tok->next), tok);
  if (tok_equal(tok, "++")) return vla_lower(new_unary(ND_PREINC, unary(rest, tok->next), tok));
  if (tok_equal(tok, "--")) return vla_lower(new_unary(ND_PREDEC, unary(rest, tok->next), tok));
  if (tok_equal(tok, "&&")) error_tok(tok, "unsupported: address of a label");
  if (tok_equal(tok, "sizeof")) {
    Node *n = new_node(ND_SIZEOF, tok);
    if (tok_equal(tok->next, "(") && is_typename(tok->next->next)) {
      Type *ty = typename_(&tok, tok->next->next);
      *rest = skip(tok, ")");
      n->cast_ty = ty;
    } else {
      Node *e = unary(rest, tok->next);
      add_type(e);
      n->lhs = e;
      n->cast_ty = e->ty;
    }
    if (is_vla(n->cast_ty)) return vla_sizeof(n, n->lhs);
    if (n->cast_ty->kind == TY_VOID || n->cast_ty->kind == TY_FUNC || n->cast_ty->size < 0 ||
        (n->cast_ty->kind == TY_ARRAY && n->cast_ty->array_len < 0))
      error_tok(n->tok, "invalid application of 'sizeof' to an incomplete type '%s'", type_name(n->cast_ty));
    n->ival = n->cast_ty->size;
    n->ty = ty_ulong;
    return n;
  }
  if (tok_equal(tok, "new") || tok_equal(tok, "delete")) error_tok(tok, "unsupported C++: '%.*s'", tok->len, tok->loc);
  return postfix(rest, tok);
}

/* postfix = primary ("[" expr "]" | "." ident | "->" ident | "++" | "--")* */
static Node *postfix(Token **rest, Token *tok) {
  Node *n = primary(&tok, tok);
  for (;;) {
    if (tok_equal(tok, "[")) {
      Token *start = tok;
      Node *idx = expr(&tok, tok->next);
      tok = skip(tok, "]");
      /* located at the array's name, as a reader points at "a[i]" */
      n = new_binary(ND_INDEX, n, idx, n->tok ? n->tok : start);
      n->end_tok = tok;
      n = vla_lower(n);
      continue;
    }
    if (tok_equal(tok, ".") || tok_equal(tok, "->")) {
      bool arrow = tok_equal(tok, "->");
      add_type(n);
      if (!arrow && n->ty->cg_group) { n = cg_method(&tok, n, tok->next); continue; }
      if (!arrow && n->ty->is_half == 2 && (tok_equal(tok->next, "x") || tok_equal(tok->next, "y"))) {
        /* h2.x, h2.y (read): the low and high halves */
        Node *c = new_node(ND_CALL, tok->next);
        c->builtin = BI_HALF;
        c->ival = tok_equal(tok->next, "x") ? HOP_LOW : HOP_HIGH;
        c->implicit = true;
        c->args = n;
        c->nargs = 1;
        c->ty = half_type(1);
        n = c;
        tok = tok->next->next;
        continue;
      }
      Type *st = arrow ? (n->ty->kind == TY_PTR ? n->ty->base : NULL) : n->ty;
      if (!st || st->kind != TY_STRUCT)
        error_tok(tok, "member reference %s type '%s' is not a %s", arrow ? "through" : "base", type_name(n->ty), arrow ? "pointer to a struct" : "struct");
      if (tok->next->kind != TK_IDENT) error_tok(tok->next, "expected a member name");
      Member *m = find_member(st, tok_text(tok->next));
      if (!m) error_tok(tok->next, "no member named '%.*s' in '%s'", tok->next->len, tok->next->loc, type_name(st));
      Node *mn = new_node(ND_MEMBER, tok);
      mn->lhs = n;
      mn->member = m;
      mn->arrow = arrow;
      mn->ty = m->ty;
      if (n->ty->qual & Q_CONST || (arrow && st->qual & Q_CONST)) mn->ty = qualified(m->ty, Q_CONST);
      n = mn;
      tok = tok->next->next;
      continue;
    }
    if (tok_equal(tok, "++")) { n = vla_lower(new_unary(ND_POSTINC, n, tok)); tok = tok->next; continue; }
    if (tok_equal(tok, "--")) { n = vla_lower(new_unary(ND_POSTDEC, n, tok)); tok = tok->next; continue; }
    if (tok_equal(tok, "(")) {
      add_type(n);
      error_tok(tok, "called object is not a function");
    }
    break;
  }
  *rest = tok;
  return n;
}

/* ---- builtin functions ---- */
typedef struct { const char *name; Builtin bi; int nargs; } BuiltinDef;
static const BuiltinDef builtin_defs[] = {
  {"__syncthreads", BI_SYNCTHREADS, 0}, {"__syncthreads_count", BI_SYNCTHREADS_COUNT, 1},
  {"__syncthreads_and", BI_SYNCTHREADS_AND, 1}, {"__syncthreads_or", BI_SYNCTHREADS_OR, 1},
  {"__syncwarp", BI_SYNCWARP, -1}, {"__threadfence", BI_THREADFENCE, 0}, {"__threadfence_block", BI_THREADFENCE_BLOCK, 0},
  {"__threadfence_system", BI_THREADFENCE, 0},
  {"atomicAdd", BI_ATOMIC_ADD, 2}, {"atomicSub", BI_ATOMIC_SUB, 2}, {"atomicExch", BI_ATOMIC_EXCH, 2},
  {"atomicMin", BI_ATOMIC_MIN, 2}, {"atomicMax", BI_ATOMIC_MAX, 2}, {"atomicInc", BI_ATOMIC_INC, 2},
  {"atomicDec", BI_ATOMIC_DEC, 2}, {"atomicCAS", BI_ATOMIC_CAS, 3}, {"atomicAnd", BI_ATOMIC_AND, 2},
  {"atomicOr", BI_ATOMIC_OR, 2}, {"atomicXor", BI_ATOMIC_XOR, 2},
  /* the _system and _block scopes: one memory and one order in carve's engines, the same operation */
  {"atomicAdd_system", BI_ATOMIC_ADD, 2}, {"atomicSub_system", BI_ATOMIC_SUB, 2}, {"atomicExch_system", BI_ATOMIC_EXCH, 2}, {"atomicMin_system", BI_ATOMIC_MIN, 2},
  {"atomicMax_system", BI_ATOMIC_MAX, 2}, {"atomicInc_system", BI_ATOMIC_INC, 2}, {"atomicDec_system", BI_ATOMIC_DEC, 2}, {"atomicCAS_system", BI_ATOMIC_CAS, 3},
  {"atomicAnd_system", BI_ATOMIC_AND, 2}, {"atomicOr_system", BI_ATOMIC_OR, 2}, {"atomicXor_system", BI_ATOMIC_XOR, 2},
  {"atomicAdd_block", BI_ATOMIC_ADD, 2}, {"atomicSub_block", BI_ATOMIC_SUB, 2}, {"atomicExch_block", BI_ATOMIC_EXCH, 2}, {"atomicMin_block", BI_ATOMIC_MIN, 2},
  {"atomicMax_block", BI_ATOMIC_MAX, 2}, {"atomicInc_block", BI_ATOMIC_INC, 2}, {"atomicDec_block", BI_ATOMIC_DEC, 2}, {"atomicCAS_block", BI_ATOMIC_CAS, 3},
  {"atomicAnd_block", BI_ATOMIC_AND, 2}, {"atomicOr_block", BI_ATOMIC_OR, 2}, {"atomicXor_block", BI_ATOMIC_XOR, 2},
  {"__shfl_sync", BI_SHFL, -3}, {"__shfl_up_sync", BI_SHFL_UP, -3}, {"__shfl_down_sync", BI_SHFL_DOWN, -3},
  {"__shfl_xor_sync", BI_SHFL_XOR, -3}, {"__ballot_sync", BI_BALLOT, 2}, {"__any_sync", BI_ANY, 2},
  {"__all_sync", BI_ALL, 2}, {"__activemask", BI_ACTIVEMASK, 0}, {"__popc", BI_POPC, 1}, {"__popcll", BI_POPCLL, 1},
  {"__clz", BI_CLZ, 1}, {"__clzll", BI_CLZLL, 1}, {"__ffs", BI_FFS, 1}, {"__ffsll", BI_FFSLL, 1},
  {"__brev", BI_BREV, 1}, {"__ldg", BI_LDG, 1}, {"min", BI_MIN, 2}, {"max", BI_MAX, 2}, {"umin", BI_MIN, 2},
  {"umax", BI_MAX, 2}, {"llmin", BI_MIN, 2}, {"llmax", BI_MAX, 2}, {"abs", BI_ABS, 1}, {"labs", BI_ABS, 1},
  {"printf", BI_PRINTF, -1}, {"clock", BI_CLOCK, 0}, {"clock64", BI_CLOCK, 0}, {"assert", BI_ASSERT, 1},
  {"__shfl", BI_NONE, 0}, {"__shfl_down", BI_NONE, 0}, {"__shfl_up", BI_NONE, 0}, {"__shfl_xor", BI_NONE, 0},
  {"__ballot", BI_NONE, 0}, {"__any", BI_NONE, 0}, {"__all", BI_NONE, 0},
  {"__pipeline_memcpy_async", BI_PIPE_COPY, -3}, {"__pipeline_commit", BI_PIPE_COMMIT, 0},
  {"__pipeline_wait_prior", BI_PIPE_WAIT, 1},
};

static const MathFn math_fns[] = {
#define M(name, ret, t1, t2, t3, expr) {#name, MATH_##name, #ret[0], #t1 #t2 #t3},
#include "mathfns.def"
#undef M
};

const MathFn *find_math(const char *name, int len) {
  for (size_t i = 0; i < sizeof math_fns / sizeof *math_fns; i++)
    if ((int)strlen(math_fns[i].name) == len && !memcmp(math_fns[i].name, name, (size_t)len)) return &math_fns[i];
  return NULL;
}

static Type *math_type(char c) {
  switch (c) {
  case 'F': return ty_float;
  case 'D': return ty_double;
  case 'I': return ty_int;
  case 'U': return ty_uint;
  case 'L': return ty_llong;
  default: return ty_ullong;
  }
}

static Node *func_args(Token **rest, Token *tok, Node *call) {
  Node head = {0}, *cur = &head;
  int n = 0;
  while (!tok_equal(tok, ")")) {
    if (n) tok = skip(tok, tok_equal(tok, ",") ? "," : ")");
    cur = cur->next = assign(&tok, tok);
    add_type(cur);
    n++;
  }
  call->nargs = n;
  call->end_tok = tok;
  *rest = tok->next;
  return head.next;
}

static void coerce_arg(Node **a, Type *ty) {
  Node *fake = new_node(ND_VAR, (*a)->tok);
  Obj tmp = {0};
  tmp.ty = unqual(ty);
  fake->var = &tmp;
  fake->ty = tmp.ty;
  Node *next = (*a)->next;   /* before add_type: a conversion built around *a may unlink it */
  Node *as = new_binary(ND_ASSIGN, fake, *a, (*a)->tok);
  add_type(as);
  *a = as->rhs;
  (*a)->next = next;
}

static Node *nth(Node *args, int i) { while (i--) args = args->next; return args; }
static Node **nthp(Node **args, int i) { while (i--) args = &(*args)->next; return args; }

static bool atomic_type_ok(Builtin b, Type *t) {
  bool i32 = t->kind == TY_INT, u64 = (t->kind == TY_LLONG || t->kind == TY_LONG) && t->is_unsigned;
  bool s64 = (t->kind == TY_LLONG || t->kind == TY_LONG) && !t->is_unsigned;
  switch (b) {
  case BI_ATOMIC_ADD: return i32 || u64 || t->kind == TY_FLOAT || t->kind == TY_DOUBLE;
  case BI_ATOMIC_SUB: return i32;
  case BI_ATOMIC_EXCH: return i32 || u64 || t->kind == TY_FLOAT;
  case BI_ATOMIC_MIN: case BI_ATOMIC_MAX: return i32 || u64 || s64;
  case BI_ATOMIC_INC: case BI_ATOMIC_DEC: return i32 && t->is_unsigned;
  case BI_ATOMIC_CAS: return i32 || u64 || (t->kind == TY_SHORT && t->is_unsigned);
  default: return i32 || u64;
  }
}

/* void __pipeline_memcpy_async(void *dst_shared, const void *src_global, size_t size_and_align,
 * size_t zfill = 0) (CUDA C++ Programming Guide, "Pipeline Primitives Interface"): object
 * pointers, sizes as size_t; 4, 8 or 16 and the alignment are the run's to check (a value) */
static Node *pipeline_copy_call(Token *name, Node *call) {
  if (call->nargs != 3 && call->nargs != 4)
    error_tok(name, "'__pipeline_memcpy_async' takes 3 or 4 arguments, %d given", call->nargs);
  for (int i = 0; i < 2; i++) {
    Node *a = nth(call->args, i);
    if (!is_pointer_like(a->ty) || a->ty->base->kind == TY_FUNC)
      error_tok(a->tok, "argument %d of '__pipeline_memcpy_async' must be a pointer (the %s), not '%s'", i + 1,
                i ? "global source" : "shared destination", type_name(a->ty));
    coerce_arg(nthp(&call->args, i), pointer_to(i ? qualified(ty_void, Q_CONST) : ty_void));
  }
  for (int i = 2; i < call->nargs; i++) {
    Node *a = nth(call->args, i);
    if (!is_integer(a->ty))
      error_tok(a->tok, "argument %d of '__pipeline_memcpy_async' must be an integer, not '%s'", i + 1, type_name(a->ty));
    coerce_arg(nthp(&call->args, i), ty_ulong);
  }
  call->ty = ty_void;
  return call;
}

static Node *builtin_call(Token *name, const BuiltinDef *bd, Node *call) {
  call->builtin = bd->bi;
  if (bd->bi == BI_NONE)
    error_tok(name, "'%.*s' was removed in CUDA 9; use the _sync variant with a mask", name->len, name->loc);
  int want = bd->nargs;
  if (want >= 0 && call->nargs != want)
    error_tok(name, "'%.*s' takes %d argument%s, %d given", name->len, name->loc, want, want == 1 ? "" : "s", call->nargs);
  Node *a = call->args;
  switch (bd->bi) {
  case BI_SYNCTHREADS: case BI_THREADFENCE: case BI_THREADFENCE_BLOCK:
    call->ty = ty_void;
    return call;
  case BI_SYNCTHREADS_COUNT: case BI_SYNCTHREADS_AND: case BI_SYNCTHREADS_OR:
    coerce_arg(&call->args, ty_int);
    call->ty = ty_int;
    return call;
  case BI_SYNCWARP:
    if (call->nargs > 1) error_tok(name, "'__syncwarp' takes at most 1 argument");
    if (call->nargs) coerce_arg(&call->args, ty_uint);
    call->ty = ty_void;
    return call;
  case BI_ATOMIC_ADD: case BI_ATOMIC_SUB: case BI_ATOMIC_EXCH: case BI_ATOMIC_MIN: case BI_ATOMIC_MAX:
  case BI_ATOMIC_INC: case BI_ATOMIC_DEC: case BI_ATOMIC_CAS: case BI_ATOMIC_AND: case BI_ATOMIC_OR: case BI_ATOMIC_XOR: {
    if (a->ty->kind != TY_PTR) error_tok(a->tok, "first argument of '%.*s' must be a pointer", name->len, name->loc);
    Type *t = unqual(a->ty->base);
    if (!atomic_type_ok(bd->bi, t))
      error_tok(name, "no '%.*s' for '%s'", name->len, name->loc, type_name(a->ty));
    for (int i = 1; i < call->nargs; i++) coerce_arg(nthp(&call->args, i), t);
    call->ty = t;
    return call;
  }
  case BI_SHFL: case BI_SHFL_UP: case BI_SHFL_DOWN: case BI_SHFL_XOR: {
    if (call->nargs != 3 && call->nargs != 4) error_tok(name, "'%.*s' takes 3 or 4 arguments", name->len, name->loc);
    Type *t = unqual(nth(a, 1)->ty);
    if (!is_numeric(t)) error_tok(nth(a, 1)->tok, "cannot shuffle a value of type '%s'", type_name(t));
    if (t->size < 4 && !t->is_half) { t = ty_int; coerce_arg(nthp(&call->args, 1), t); }   /* a __half moves as its bits */
    coerce_arg(&call->args, ty_uint);
    coerce_arg(nthp(&call->args, 2), bd->bi == BI_SHFL || bd->bi == BI_SHFL_XOR ? ty_int : ty_uint);
    if (call->nargs == 4) coerce_arg(nthp(&call->args, 3), ty_int);
    call->ty = t;
    return call;
  }
  case BI_BALLOT: case BI_ANY: case BI_ALL:
    coerce_arg(&call->args, ty_uint);
    coerce_arg(nthp(&call->args, 1), ty_int);
    call->ty = bd->bi == BI_BALLOT ? ty_uint : ty_int;
    return call;
  case BI_ACTIVEMASK: call->ty = ty_uint; return call;
  case BI_POPC: case BI_CLZ: case BI_FFS: case BI_BREV:
    coerce_arg(&call->args, bd->bi == BI_POPC || bd->bi == BI_BREV ? ty_uint : ty_int);
    call->ty = bd->bi == BI_BREV ? ty_uint : ty_int;
    return call;
  case BI_POPCLL: case BI_CLZLL: case BI_FFSLL:
    coerce_arg(&call->args, bd->bi == BI_POPCLL ? ty_ullong : ty_llong);
    call->ty = ty_int;
    return call;
  case BI_LDG:
    if (a->ty->kind != TY_PTR || !is_scalar(a->ty->base) )
      if (!(a->ty->kind == TY_PTR && a->ty->base->is_vector)) error_tok(a->tok, "'__ldg' needs a pointer to a scalar or vector type");
    call->ty = unqual(a->ty->base);
    return call;
  case BI_MIN: case BI_MAX: {
    Node *b = a->next;
    if (!is_numeric(a->ty) || !is_numeric(b->ty)) error_tok(name, "invalid arguments to '%.*s'", name->len, name->loc);
    Type *t = a->ty->is_half || b->ty->is_half ? ty_float : common_type(a->ty, b->ty);   /* a __half: as a float */
    coerce_arg(&call->args, t);
    coerce_arg(nthp(&call->args, 1), t);
    call->ty = t;
    return call;
  }
  case BI_ABS:
    if (a->ty->is_half) coerce_arg(&call->args, ty_float);
    a = call->args;
    if (is_flonum(a->ty)) {
      call->builtin = BI_MATH;
      call->math = find_math(a->ty->kind == TY_FLOAT ? "fabsf" : "fabs", a->ty->kind == TY_FLOAT ? 5 : 4);
      call->ty = a->ty->kind == TY_FLOAT ? ty_float : ty_double;
      return call;
    }
    if (!is_integer(a->ty)) error_tok(a->tok, "invalid argument to 'abs'");
    call->ty = common_type(a->ty, ty_int);
    coerce_arg(&call->args, call->ty);
    return call;
  case BI_PRINTF:
    if (call->nargs < 1 || a->kind != ND_STR) error_tok(name, "printf needs a string literal format");
    for (Node *x = a->next; x; x = x->next)
      if (!is_scalar(x->ty) && x->ty->kind != TY_ARRAY) error_tok(x->tok, "printf argument must be a scalar");
    call->ty = ty_int;
    return call;
  case BI_CLOCK: call->ty = ty_llong; return call;
  case BI_PIPE_COPY: return pipeline_copy_call(name, call);
  case BI_PIPE_COMMIT: call->ty = ty_void; return call;
  case BI_PIPE_WAIT:
    if (!is_integer(a->ty)) error_tok(a->tok, "argument of '__pipeline_wait_prior' must be an integer, not '%s'", type_name(a->ty));
    coerce_arg(&call->args, ty_ulong);
    call->ty = ty_void;
    return call;
  case BI_ASSERT: {
    /* the condition as written, for the fault's message (a string argument, not printed) */
    coerce_arg(&call->args, ty_bool);
    Token *s = arena_alloc(sizeof(Token));
    *s = *name;
    s->kind = TK_STR;
    s->origin = name;
    s->macro = NULL;
    Buf b = {0};
    for (Token *t = name->next->next; t && t != call->end_tok && t->kind != TK_EOF; t = t->next)
      buf_printf(&b, "%s%.*s", b.len && t->has_space ? " " : "", t->len, t->loc);
    s->str = arena_strdup(b.s ? b.s : "");
    buf_free(&b);
    Node *text = new_node(ND_STR, s);
    text->ty = array_of(ty_char, (int)strlen(s->str) + 1);
    call->args->next = text;
    call->ty = ty_void;
    return call;
  }
  default: break;
  }
  error_tok(name, "internal: unhandled builtin");
}

/* cuda_fp16.h's intrinsics: the operation and its signature (arguments, then the result):
 * f float, i int, h __half, H __half2, b bool */
typedef struct { const char *name; HalfOp op; const char *sig; } HalfFn;
static const HalfFn half_fns[] = {
  {"__float2half", HOP_F2H, "f>h"}, {"__float2half_rn", HOP_F2H, "f>h"}, {"__half2float", HOP_H2F, "h>f"},
  {"__int2half_rn", HOP_I2H, "i>h"}, {"__half2int_rz", HOP_H2I, "h>i"},
  {"__hadd", HOP_ADD, "hh>h"}, {"__hsub", HOP_SUB, "hh>h"}, {"__hmul", HOP_MUL, "hh>h"}, {"__hdiv", HOP_DIV, "hh>h"},
  {"__hfma", HOP_FMA, "hhh>h"}, {"__hneg", HOP_NEG, "h>h"}, {"__habs", HOP_ABS, "h>h"}, {"__hmin", HOP_MIN, "hh>h"},
  {"__hmax", HOP_MAX, "hh>h"}, {"hsqrt", HOP_SQRT, "h>h"}, {"hexp", HOP_EXP, "h>h"}, {"hlog", HOP_LOG, "h>h"},
  {"hrcp", HOP_RCP, "h>h"}, {"__heq", HOP_EQ, "hh>b"}, {"__hne", HOP_NE, "hh>b"}, {"__hlt", HOP_LT, "hh>b"},
  {"__hle", HOP_LE, "hh>b"}, {"__hgt", HOP_GT, "hh>b"}, {"__hge", HOP_GE, "hh>b"},
  {"__hadd2", HOP_ADD2, "HH>H"}, {"__hsub2", HOP_SUB2, "HH>H"}, {"__hmul2", HOP_MUL2, "HH>H"},
  {"__hfma2", HOP_FMA2, "HHH>H"}, {"__hneg2", HOP_NEG2, "H>H"}, {"__float2half2_rn", HOP_F2H2, "f>H"},
  {"__floats2half2_rn", HOP_FLOATS2H2, "ff>H"}, {"__halves2half2", HOP_HALVES2H2, "hh>H"},
  {"make_half2", HOP_HALVES2H2, "hh>H"}, {"__low2half", HOP_LOW, "H>h"}, {"__high2half", HOP_HIGH, "H>h"},
  {"__low2float", HOP_LOWF, "H>f"}, {"__high2float", HOP_HIGHF, "H>f"}, {"__half22float2", HOP_H22F2, "H>F"},
};

static Type *half_type(int which) { return which == 1 ? builtin_typedef("__half", 6) : builtin_typedef("__half2", 7); }

static Node *half_intrinsic(Token *name, const HalfFn *h, Node *call) {
  int want = (int)(strchr(h->sig, '>') - h->sig);
  if (call->nargs != want)
    error_tok(name, "'%.*s' takes %d argument%s, %d given", name->len, name->loc, want, want == 1 ? "" : "s", call->nargs);
  for (int i = 0; i < want; i++) {
    char c = h->sig[i];
    Node *a = nth(call->args, i);
    Type *t = c == 'f' ? ty_float : c == 'i' ? ty_int : half_type(c == 'h' ? 1 : 2);
    if (c == 'h' || c == 'H' ? a->ty->is_half != t->is_half : !is_numeric(a->ty) || a->ty->is_half)
      error_tok(a->tok, "argument %d of '%.*s' must be '%s', not '%s'", i + 1, name->len, name->loc, type_name(t), type_name(a->ty));
    coerce_arg(nthp(&call->args, i), t);
  }
  char r = h->sig[want + 1];
  call->builtin = BI_HALF;
  call->ival = h->op;
  call->ty = r == 'f' ? ty_float : r == 'i' ? ty_int : r == 'b' ? ty_bool : r == 'F' ? vector_type("float2") : half_type(r == 'h' ? 1 : 2);
  return call;
}

/* __half2(a, b) as cuda_fp16.hpp's constructor: each value made a __half first (a float as
 * __float2half would), then __halves2half2 */
static Node *half2_ctor(Token *name, Node *call) {
  for (int i = 0; i < call->nargs; i++) {
    Node **a = nthp(&call->args, i);
    add_type(*a);
    if (!(*a)->ty->is_half && !is_numeric((*a)->ty)) error_tok((*a)->tok, "a __half2 is constructed from two __half values, not '%s'", type_name((*a)->ty));
    if ((*a)->ty->is_half == 1) continue;
    coerce_arg(a, half_type(1));
    if ((*a)->kind == ND_CALL && (*a)->builtin == BI_HALF && ((*a)->ival == HOP_F2H || (*a)->ival == HOP_I2H)) {
      /* written out in the print (nvcc's __halves2half2 takes __half, as carve's does) */
      Token *t = arena_alloc(sizeof(Token));
      *t = *(*a)->tok;
      t->kind = TK_IDENT;
      t->loc = (*a)->ival == HOP_F2H ? "__float2half" : "__int2half_rn";
      t->len = (int)strlen(t->loc);
      t->origin = (*a)->tok;
      t->macro = NULL;
      (*a)->tok = t;
      (*a)->implicit = false;
    }
  }
  for (size_t i = 0; i < sizeof half_fns / sizeof *half_fns; i++)
    if (half_fns[i].op == HOP_HALVES2H2) return half_intrinsic(name, &half_fns[i], call);
  error_tok(name, "internal: no __halves2half2");
}

/* make_float4(x, y, z, w) and friends */
static Node *make_vector_call(Token *name, Type *vt, Node *call) {
  int n = 0;
  for (Member *m = vt->members; m; m = m->next) n++;
  if (vt->typedef_name && !strcmp(vt->typedef_name, "dim3") && call->nargs < 3) {
    /* dim3(x) and dim3(x, y): the rest are 1 */
    Node **pp = &call->args;
    while (*pp) pp = &(*pp)->next;
    for (; call->nargs < 3; call->nargs++) { *pp = new_num(1, tnum_token(name, 1)); (*pp)->ty = ty_uint; pp = &(*pp)->next; }
  }
  if (call->nargs != n) error_tok(name, "'%.*s' takes %d arguments, %d given", name->len, name->loc, n, call->nargs);
  for (int i = 0; i < n; i++) {
    Node *a = nth(call->args, i);
    if (!is_numeric(a->ty)) error_tok(a->tok, "invalid argument of type '%s'", type_name(a->ty));
    coerce_arg(nthp(&call->args, i), vt->members->ty);
  }
  call->builtin = BI_MAKE_VECTOR;
  call->ty = vt;
  return call;
}

/* nvcc --use_fast_math (main.c defines __CARVE_FAST_MATH__): the single-precision functions
 * with an intrinsic are the intrinsic (CUDA C++ Programming Guide, "Intrinsic Functions") */
static const MathFn *fast_math(const MathFn *mf) {
  static const char *fns[] = {"expf", "exp10f", "logf", "log2f", "log10f", "sinf", "cosf", "tanf", "powf"};
  int64_t on;
  if (!pp_macro_value("__CARVE_FAST_MATH__", &on)) return mf;
  for (size_t i = 0; i < sizeof fns / sizeof *fns; i++)
    if (!strcmp(mf->name, fns[i])) {
      const MathFn *f = find_math(fmt("__%s", fns[i]), (int)strlen(fns[i]) + 2);
      return f ? f : mf;
    }
  return mf;
}

static Node *math_call(Token *name, const MathFn *mf, Node *call) {
  /* C++ overloads: sqrt(float) is the float function */
  bool any_double = false, any_float = false;
  for (Node *a = call->args; a; a = a->next) {
    if (a->ty->kind == TY_DOUBLE) any_double = true;
    if (a->ty->kind == TY_FLOAT) any_float = true;
  }
  if (mf->ret == 'D' && any_float && !any_double && mf->args[0] == 'D') {
    const MathFn *f = find_math(fmt("%sf", mf->name), (int)strlen(mf->name) + 1);
    if (f) mf = f;
  }
  mf = fast_math(mf);
  int want = 0;
  while (want < 3 && mf->args[want] != '_') want++;
  if (call->nargs != want)
    error_tok(name, "'%.*s' takes %d argument%s, %d given", name->len, name->loc, want, want == 1 ? "" : "s", call->nargs);
  for (int i = 0; i < want; i++) {
    Node *a = nth(call->args, i);
    if (!is_numeric(a->ty)) error_tok(a->tok, "invalid argument of type '%s' to '%s'", type_name(a->ty), mf->name);
    coerce_arg(nthp(&call->args, i), math_type(mf->args[i]));
  }
  call->builtin = BI_MATH;
  call->math = mf;
  call->ty = math_type(mf->ret);
  return call;
}

static Node *sincos_call(Token *name, Node *call, bool is_float) {
  if (call->nargs != 3) error_tok(name, "'%.*s' takes 3 arguments", name->len, name->loc);
  Type *t = is_float ? ty_float : ty_double;
  coerce_arg(&call->args, t);
  for (int i = 1; i < 3; i++) {
    Node *a = nth(call->args, i);
    if (a->ty->kind != TY_PTR || a->ty->base->kind != t->kind) error_tok(a->tok, "argument %d of '%.*s' must be '%s *'", i + 1, name->len, name->loc, type_name(t));
  }
  call->builtin = BI_MATH;
  call->math = find_math(is_float ? "sinf" : "sin", is_float ? 4 : 3);
  call->ival = 1;   /* marks sincos: stores sin and cos through the pointers */
  call->ty = ty_void;
  return call;
}

/* std::sqrt, ::sqrtf, std::min: the library's functions by their plain names (a copy of the
 * token, located at it) */
static Token *std_name(Token *name) {
  static const char *prefixes[] = {"::", "std::", "cuda::std::"};
  for (size_t i = 0; i < sizeof prefixes / sizeof *prefixes; i++) {
    int n = (int)strlen(prefixes[i]);
    if (name->len > n && !strncmp(name->loc, prefixes[i], (size_t)n) && !memchr(name->loc + n, ':', (size_t)(name->len - n))) {
      Token *t = arena_alloc(sizeof(Token));
      *t = *name;
      t->origin = name;
      t->macro = NULL;
      t->loc += n;
      t->len -= n;
      return t;
    }
  }
  return name;
}

/* a call of a user function: arguments converted to its parameters */
/* the arguments a call leaves out, from the parameters' defaults: each a copy of the default
 * expression (printed at the call, which means the same) */
static void fill_defaults(Node *call, Type *ft) {
  int i = 0;
  Node **tail = &call->args;
  for (; *tail; tail = &(*tail)->next) i++;
  Type *p = ft->params;
  for (int k = 0; p && k < i; k++) p = p->next;
  for (; p && p->default_arg; p = p->next) {
    *tail = clone_nodes(p->default_arg);
    add_type(*tail);
    tail = &(*tail)->next;
    call->nargs++;
  }
}

static Node *user_call(Token *name, Node *call, Obj *fn) {
  if (fn->is_kernel) error_tok(name, "a __global__ function cannot be called from device code here (dynamic parallelism is not supported)");
  call->fn = fn;
  Type *ft = fn->ty;
  fill_defaults(call, ft);
  int np = 0;
  for (Type *p = ft->params; p; p = p->next) np++;
  if (call->nargs < np || (call->nargs > np && !ft->is_variadic))
    error_tok(name, "too %s arguments to function call, expected %d, have %d", call->nargs < np ? "few" : "many", np, call->nargs);
  int i = 0;
  for (Type *p = ft->params; p; p = p->next, i++) {
    Node **a = nthp(&call->args, i);
    if (p->is_ref && p->kind == TY_PTR) {   /* T&: the argument's address */
      if (!lvalue_node(*a)) error_tok((*a)->tok, "argument %d of '%s' is a reference: it needs an lvalue", i + 1, fn->name);
      Node *next = (*a)->next;
      Node *addr = new_unary(ND_ADDR, *a, (*a)->tok);
      addr->implicit = true;
      add_type(addr);
      addr->next = next;
      *a = addr;
    }
    coerce_arg(a, p);
  }
  call->ty = ft->return_ty;
  return call;
}

/* funcall = ident "(" (assign ("," assign)*)? ")" */
static Node *user_call(Token *name, Node *call, Obj *fn);
static Node *funcall(Token **rest, Token *tok) {
  Token *name = tok;
  Node *call = new_node(ND_CALL, tok);
  call->args = func_args(rest, tok->next->next, call);
  VarScope *vs = find_var(name);
  if (!vs && in_host_fn() && tok_equal(name, "printf")) vs = find_var_n("__carve_printf", 14);   /* the host's, not the device builtin */
  if (vs && vs->var && vs->var->sc == SC_FUNC) {
    Obj *fn = vs->var;
    if (fn->is_host && !fn->is_device && !in_host_fn())
      error_tok(name, "calling a __host__ function '%.*s' from device code; declare it __device__", name->len, name->loc);
    if (fn->is_host_lib) symbol_arg(fn, call);
    return user_call(name, call, fn);
  }
  if (vs && vs->var) error_tok(name, "called object '%.*s' is not a function", name->len, name->loc);
  Token *qualified_name = name;
  name = call->tok = std_name(name);   /* printed as the plain name: nvcc needs no <cmath> */
  for (size_t i = 0; i < sizeof half_fns / sizeof *half_fns; i++)
    if (tok_equal(name, half_fns[i].name)) return half_intrinsic(name, &half_fns[i], call);
  for (size_t i = 0; i < sizeof builtin_defs / sizeof *builtin_defs; i++)
    if (tok_equal(name, builtin_defs[i].name)) return builtin_call(name, &builtin_defs[i], call);
  if (name->len > 5 && !strncmp(name->loc, "make_", 5)) {
    Type *vt = vector_type(arena_strndup(name->loc + 5, (size_t)name->len - 5));
    if (vt) return make_vector_call(name, vt, call);
  }
  if (tok_equal(name, "sincosf") || tok_equal(name, "__sincosf")) return sincos_call(name, call, true);
  if (tok_equal(name, "sincos")) return sincos_call(name, call, false);
  const MathFn *mf = find_math(name->loc, name->len);
  if (mf) return math_call(name, mf, call);
  name = qualified_name;
  if (is_host_func(name))
    error_tok(name, "calling a __host__ function '%.*s' from device code; declare it __device__", name->len, name->loc);
  if (in_host_fn())
    error_tok(name, "unknown function '%.*s': the file does not declare it and carve's host runtime does not provide it", name->len, name->loc);
  error_tok(name, "use of undeclared function '%.*s'", name->len, name->loc);
}

/* ---------------- C++ cooperative groups (docs/cxx.md) ----------------
 * thread_block and thread_block_tile<N> are values the interpreter does not need (an int);
 * what they do is in the calls: this_thread_block(), tiled_partition<N>(g), g.sync(),
 * g.thread_rank(), g.size(), tile.shfl_down(v, o), ..., reduce(tile, v, plus<T>()). */
static Type *cg_type(int group) {
  Type *t = copy_type(ty_int);
  t->typedef_name = group == -1 ? "cooperative_groups::thread_block" : group == -2 ? "cooperative_groups::thread_block_tile"
                  : group == -3 ? "cooperative_groups::grid_group" : group == -4 ? "cooperative_groups::thread_group" : fmt("cooperative_groups::thread_block_tile<%d>", group);
  t->cg_group = group;
  return t;
}

static void define_cg_types(void) {
  push_global("cooperative_groups::thread_block")->type_def = cg_type(-1);
  push_global("cooperative_groups::thread_group")->type_def = cg_type(-4);
  push_global("cooperative_groups::thread_block_tile")->type_def = cg_type(-2);
  push_global("cooperative_groups::grid_group")->type_def = cg_type(-3);
}

static int tile_size(Token **rest, Token *tok) {
  tok = skip(tok, "<");
  Token *at = tok;
  Node *e = binary_level(&tok, tok, 7);
  add_type(e);
  int64_t n;
  if (!eval_const(e, &n)) error_tok(at, "tile size is not an integer constant");
  if (n < 1 || n > 32 || (n & (n - 1))) error_tok(at, "tile size %lld: a thread_block_tile has 1, 2, 4, 8, 16 or 32 threads", (long long)n);
  *rest = skip_angle(tok);
  return (int)n;
}

/* "x" when tok names cooperative_groups::x (through an alias or `using namespace`) */
static const char *cg_member(Token *tok) {
  if (tok->kind != TK_IDENT) return NULL;
  int len = tok->len;
  const char *n = resolve_alias(tok->loc, &len);
  if (len > 20 && !strncmp(n, "cooperative_groups::", 20)) return arena_strndup(n + 20, (size_t)len - 20);
  for (int i = 0; i < n_using && !memchr(n, ':', (size_t)len); i++)
    if (!strcmp(using_ns[i], "cooperative_groups")) return arena_strndup(n, (size_t)len);
  return NULL;
}

static Node *cg_node(CgOp op, Token *tok, Node *args, Node *lowered, Type *ty) {
  Node *n = new_node(ND_CALL, tok);
  n->builtin = BI_CG;
  n->ival = op;
  n->args = args;
  n->nargs = args ? 1 : 0;
  n->lhs = lowered;
  n->ty = ty;
  return n;
}

static Node *sreg(Token *tok, SpecialReg r, int dim) {
  Node *n = new_node(ND_SPECIAL, tok);
  n->sreg = r; n->dim = dim; n->ty = ty_uint;
  return n;
}
static Node *uconst(Token *tok, int64_t v) { Node *n = new_num(v, tnum_token(tok, v)); n->ty = ty_uint; return n; }
static Node *typed(Node *n) { add_type(n); return n; }

/* the thread's rank in its block and the block's size, as CUDA defines them */
static Node *block_rank(Token *t) {
  Node *yx = new_binary(ND_MUL, sreg(t, SR_TID, 1), sreg(t, SR_NTID, 0), t);
  Node *zxy = new_binary(ND_MUL, sreg(t, SR_TID, 2), new_binary(ND_MUL, sreg(t, SR_NTID, 0), sreg(t, SR_NTID, 1), t), t);
  return typed(new_binary(ND_ADD, new_binary(ND_ADD, sreg(t, SR_TID, 0), yx, t), zxy, t));
}
static Node *block_size(Token *t) {
  return typed(new_binary(ND_MUL, new_binary(ND_MUL, sreg(t, SR_NTID, 0), sreg(t, SR_NTID, 1), t), sreg(t, SR_NTID, 2), t));
}
/* the block's rank in the grid and the grid's blocks (grid_group::block_rank, num_blocks) */
static Node *grid_block_rank(Token *t) {
  Node *yx = new_binary(ND_MUL, sreg(t, SR_CTAID, 1), sreg(t, SR_NCTAID, 0), t);
  Node *zxy = new_binary(ND_MUL, sreg(t, SR_CTAID, 2), new_binary(ND_MUL, sreg(t, SR_NCTAID, 0), sreg(t, SR_NCTAID, 1), t), t);
  return typed(new_binary(ND_ADD, new_binary(ND_ADD, sreg(t, SR_CTAID, 0), yx, t), zxy, t));
}
static Node *grid_blocks(Token *t) {
  return typed(new_binary(ND_MUL, new_binary(ND_MUL, sreg(t, SR_NCTAID, 0), sreg(t, SR_NCTAID, 1), t), sreg(t, SR_NCTAID, 2), t));
}

/* grid_group::sync(): a barrier across every block. carve's engines run the blocks of a launch one
 * after another, so it is a block barrier when the grid has one block and otherwise a fault that
 * says so (an assert whose text is the reason), never a barrier silently missing */
static const BuiltinDef *find_builtin(const char *name);
static Node *grid_sync(Token *t) {
  Node *c = new_node(ND_CALL, t);
  c->builtin = BI_ASSERT;
  c->args = typed(new_binary(ND_EQ, grid_blocks(t), uconst(t, 1), t));
  coerce_arg(&c->args, ty_bool);
  Token *s = arena_alloc(sizeof(Token));
  *s = *t;
  s->kind = TK_STR;
  s->origin = t;
  s->macro = NULL;
  s->str = "unsupported: grid-wide sync (cooperative_groups::grid_group::sync) in a launch of more than one block: "
           "carve runs the blocks one after another";
  Node *text = new_node(ND_STR, s);
  text->ty = array_of(ty_char, (int)strlen(s->str) + 1);
  c->args->next = text;
  c->nargs = 1;
  c->ty = ty_void;
  Node *bar = builtin_call(t, find_builtin("__syncthreads"), new_node(ND_CALL, t));
  return typed(new_binary(ND_COMMA, c, bar, t));
}

static const BuiltinDef *find_builtin(const char *name) {
  for (size_t i = 0; i < sizeof builtin_defs / sizeof *builtin_defs; i++)
    if (!strcmp(builtin_defs[i].name, name)) return &builtin_defs[i];
  return NULL;
}

/* what g.method(args) does, for a group of size n (-1: the block) */
/* a thread_group's methods, decided when the program runs: its value is 0 for a block and N for
 * a tile of N (what this_thread_block() and tiled_partition<N>() evaluate to), so
 * simpleCooperativeGroups' sumReduction(thread_group g, ...) works for either */
static Node *dyn_group(Token *t, const char *m, Node *obj) {
  Node *zero = typed(new_binary(ND_EQ, clone_nodes(obj), new_num(0, tnum_token(t, 0)), t));
  Node *c = new_node(ND_COND, t);
  c->cond = zero;
  if (!strcmp(m, "thread_rank")) {
    c->then = block_rank(t);
    c->els = typed(new_binary(ND_MOD, block_rank(t), typed_cast(clone_nodes(obj), ty_uint), t));
  } else if (!strcmp(m, "size") || !strcmp(m, "num_threads")) {
    c->then = block_size(t);
    c->els = typed_cast(clone_nodes(obj), ty_uint);
  } else if (!strcmp(m, "sync")) {
    Node *b = new_node(ND_CALL, t), *w = new_node(ND_CALL, t);
    c->then = builtin_call(t, find_builtin("__syncthreads"), b);
    w->args = uconst(t, 0xffffffffu);
    w->nargs = 1;
    c->els = builtin_call(t, find_builtin("__syncwarp"), w);
  } else {
    error_tok(t, "unsupported: cooperative groups method '%s' on a thread_group (carve has thread_rank, size, num_threads and sync)", m);
  }
  return typed(c);
}

static Node *cg_lowered(Token *t, const char *m, int n, Node *args, int nargs, Node *obj) {
  if (n == -4) return dyn_group(t, m, obj);
  if (n == -3) {   /* grid_group */
    if (!strcmp(m, "sync")) return grid_sync(t);
    if (!strcmp(m, "thread_rank")) return typed(new_binary(ND_ADD, new_binary(ND_MUL, grid_block_rank(t), block_size(t), t), block_rank(t), t));
    if (!strcmp(m, "size") || !strcmp(m, "num_threads")) return typed(new_binary(ND_MUL, grid_blocks(t), block_size(t), t));
    if (!strcmp(m, "block_rank")) return grid_block_rank(t);
    if (!strcmp(m, "num_blocks")) return grid_blocks(t);
    if (!strcmp(m, "is_valid")) return uconst(t, 1);
    error_tok(t, "unsupported: cooperative groups method '%s' on a grid_group", m);
  }
  if (!strcmp(m, "sync")) {
    Node *c = new_node(ND_CALL, t);
    if (n < 0) return builtin_call(t, find_builtin("__syncthreads"), c);
    c->args = uconst(t, 0xffffffffu);
    c->nargs = 1;
    return builtin_call(t, find_builtin("__syncwarp"), c);
  }
  if (!strcmp(m, "thread_rank")) return n < 0 ? block_rank(t) : typed(new_binary(ND_MOD, block_rank(t), uconst(t, n), t));
  if (!strcmp(m, "size") || !strcmp(m, "num_threads")) return n < 0 ? block_size(t) : uconst(t, n);
  if (n > 0 && !strcmp(m, "meta_group_rank")) return typed(new_binary(ND_DIV, block_rank(t), uconst(t, n), t));
  if (n > 0 && !strcmp(m, "meta_group_size"))
    return typed(new_binary(ND_DIV, new_binary(ND_ADD, block_size(t), uconst(t, n - 1), t), uconst(t, n), t));
  static const char *shfl[][2] = {{"shfl", "__shfl_sync"}, {"shfl_down", "__shfl_down_sync"}, {"shfl_up", "__shfl_up_sync"}, {"shfl_xor", "__shfl_xor_sync"}};
  for (int i = 0; n > 0 && i < 4; i++)
    if (!strcmp(m, shfl[i][0])) {
      if (nargs != 2) error_tok(t, "'%s' takes 2 arguments, %d given", shfl[i][0], nargs);
      Node *c = new_node(ND_CALL, t);
      Node *mask = uconst(t, 0xffffffffu);
      mask->next = args;
      args->next->next = uconst(t, n);
      c->args = mask;
      c->nargs = 4;
      return builtin_call(t, find_builtin(shfl[i][1]), c);
    }
  static const char *vote[][2] = {{"any", "__any_sync"}, {"all", "__all_sync"}, {"ballot", "__ballot_sync"}};
  for (int i = 0; n > 0 && i < 3; i++)
    if (!strcmp(m, vote[i][0])) {
      if (n != 32) error_tok(t, "unsupported: '%s' on a tile of %d threads (carve has it for tiles of 32)", vote[i][0], n);
      if (nargs != 1) error_tok(t, "'%s' takes 1 argument, %d given", vote[i][0], nargs);
      Node *c = new_node(ND_CALL, t);
      c->args = uconst(t, 0xffffffffu);
      c->args->next = args;
      c->nargs = 2;
      return builtin_call(t, find_builtin(vote[i][1]), c);
    }
  error_tok(t, "unsupported: cooperative groups method '%s' on a %s", m, n < 0 ? "thread_block" : "thread_block_tile");
}

/* g.method(args) */
static Node *cg_method(Token **rest, Node *obj, Token *m) {
  if (m->kind != TK_IDENT) error_tok(m, "expected a member name");
  Node *tmp = new_node(ND_CALL, m);
  Node *args = NULL;
  if (!tok_equal(m->next, "(")) error_tok(m->next, "expected '(' after '%.*s' (cooperative groups have methods, not members)", m->len, m->loc);
  args = func_args(rest, m->next->next, tmp);
  Node *low = cg_lowered(m, tok_text(m), obj->ty->cg_group, args, tmp->nargs, obj);
  Node *n = cg_node(CG_METHOD, m, obj, low, low->ty);
  n->end_tok = tmp->end_tok;
  return n;
}

static Node *cg_group_arg(Token **rest, Token *tok) {
  Node *g = assign(rest, tok);
  add_type(g);
  if (!g->ty->cg_group) error_tok(g->tok, "expected a cooperative group, not '%s'", type_name(g->ty));
  return g;
}

/* cooperative_groups::this_thread_block() | tiled_partition<N>(g) | sync(g) | reduce(tile, v, op<T>()) */
static Node *cg_call(Token **rest, Token *tok, const char *f) {
  Token *name = tok;
  if (!strcmp(f, "this_thread_block")) {
    tok = skip(skip(tok->next, "("), ")");
    *rest = tok;
    return cg_node(CG_THIS_BLOCK, name, NULL, NULL, cg_type(-1));
  }
  if (!strcmp(f, "this_grid")) {   /* a value like this_thread_block()'s; its methods are lowered */
    tok = skip(skip(tok->next, "("), ")");
    *rest = tok;
    return cg_node(CG_THIS_BLOCK, name, NULL, NULL, cg_type(-3));
  }
  if (!strcmp(f, "tiled_partition")) {
    if (!tok_equal(tok->next, "<")) error_tok(tok->next, "unsupported: tiled_partition with a size at run time (write tiled_partition<N>(g))");
    int n = tile_size(&tok, tok->next);
    Node *g = cg_group_arg(&tok, skip(tok, "("));
    *rest = skip(tok, ")");
    if (g->ty->cg_group == -3) error_tok(g->tok, "a thread_block_tile comes from a thread_block or a tile, not a grid_group");
    if (g->ty->cg_group > 0 && n > g->ty->cg_group) error_tok(name, "a tile of %d threads cannot come from a tile of %d", n, g->ty->cg_group);
    return cg_node(CG_TILED, name, g, NULL, cg_type(n));
  }
  if (!strcmp(f, "sync")) {
    Node *g = cg_group_arg(&tok, skip(tok->next, "("));
    *rest = skip(tok, ")");
    Node *low = cg_lowered(name, "sync", g->ty->cg_group, NULL, 0, g);
    return cg_node(CG_SYNC, name, g, low, ty_void);
  }
  if (!strcmp(f, "reduce")) {
    Node *g = cg_group_arg(&tok, skip(tok->next, "("));
    if (g->ty->cg_group == -3 || g->ty->cg_group == -4)
      error_tok(g->tok, "unsupported: reduce over a %s (cooperative groups reduce a thread_block_tile)", g->ty->cg_group == -3 ? "grid_group" : "thread_group");
    if (g->ty->cg_group < 0) error_tok(g->tok, "unsupported: reduce over a thread_block (cooperative groups reduce a thread_block_tile)");
    Node *v = assign(&tok, skip(tok, ","));
    add_type(v);
    tok = skip(tok, ",");
    const char *op = cg_member(tok);
    static const struct { const char *name; NodeKind k; } ops[] = {{"plus", ND_ADD}, {"less", ND_LT}, {"greater", ND_GT},
      {"bit_and", ND_BITAND}, {"bit_or", ND_BITOR}, {"bit_xor", ND_BITXOR}};
    int k = -1;
    for (int i = 0; op && i < 6; i++) if (!strcmp(op, ops[i].name)) k = i;
    if (k < 0) error_tok(tok, "expected cooperative_groups::plus<T>(), less, greater, bit_and, bit_or or bit_xor");
    Type *t = typename_(&tok, skip(tok->next, "<"));
    tok = skip(skip(skip_angle(tok), "("), ")");
    *rest = skip(tok, ")");
    if (!is_numeric(t) || t->is_half) error_tok(name, "unsupported: reduce over '%s'", type_name(t));
    if (ops[k].k >= ND_BITAND && ops[k].k <= ND_BITXOR && !is_integer(t)) error_tok(name, "'%s' needs an integer type", ops[k].name);
    g->next = v;
    coerce_arg(&g->next, unqual(t));
    Node *n = cg_node(CG_REDUCE, name, g, NULL, unqual(t));
    n->nargs = 2;
    n->op = ops[k].k;
    return n;
  }
  error_tok(tok, "unsupported: cooperative_groups::%s", f);
}

static Node *special_reg(Token **rest, Token *tok) {
  SpecialReg r = tok_equal(tok, "threadIdx") ? SR_TID : tok_equal(tok, "blockIdx") ? SR_CTAID : tok_equal(tok, "blockDim") ? SR_NTID : SR_NCTAID;
  if (!tok_equal(tok->next, ".")) {
    /* C++: the whole uint3 (dim3 for blockDim and gridDim), built from its components */
    Node *call = new_node(ND_CALL, tok);
    Node head = {0}, *cur = &head;
    for (int d = 0; d < 3; d++) {
      cur = cur->next = new_node(ND_SPECIAL, tok);
      cur->sreg = r; cur->dim = d; cur->ty = ty_uint;
    }
    call->args = head.next;
    call->nargs = 3;
    call->builtin = BI_MAKE_VECTOR;
    call->implicit = true;   /* printed as the name */
    Type *t = vector_type("uint3");
    if (r == SR_NTID || r == SR_NCTAID) { t = copy_type(t); t->typedef_name = "dim3"; }
    call->ty = t;
    *rest = tok->next;
    return call;
  }
  if (tok->next->next->kind != TK_IDENT)
    error_tok(tok, "'%.*s' must be used with a component: '%.*s.x', '.y' or '.z'", tok->len, tok->loc, tok->len, tok->loc);
  Token *c = tok->next->next;
  int dim = tok_equal(c, "x") ? 0 : tok_equal(c, "y") ? 1 : tok_equal(c, "z") ? 2 : -1;
  if (dim < 0) error_tok(c, "no member named '%.*s' in '%.*s' (use x, y or z)", c->len, c->loc, tok->len, tok->loc);
  Node *n = new_node(ND_SPECIAL, tok);
  n->sreg = r;
  n->dim = dim;
  n->ty = ty_uint;
  n->end_tok = c;
  *rest = c->next;
  return n;
}

/* primary = "(" expr ")" | num | str | ident | funcall | special-register
 *         | type-name "(" expr ")" | ("static_cast" | "reinterpret_cast") "<" type-name ">" "(" expr ")" */
static Node *primary(Token **rest, Token *tok) {
  if (tok_equal(tok, "(")) {
    Node *n = expr(&tok, tok->next);
    *rest = skip(tok, ")");
    return n;
  }
  if (tok->kind == TK_NUM) {
    Node *n = new_node(ND_NUM, tok);
    n->ty = tok->ty;
    if (is_flonum(tok->ty)) n->fval = tok->fval;
    else n->ival = tok->ival;
    *rest = tok->next;
    return n;
  }
  if (tok->kind == TK_STR) {
    Node *n = new_node(ND_STR, tok);
    n->ty = tok->ty;   /* char[N]: sizeof "abc" is 4 */
    *rest = tok->next;
    return n;
  }
  if (tok_equal(tok, "true") || tok_equal(tok, "false")) {
    Node *n = new_num(tok_equal(tok, "true"), tok);
    n->ty = ty_bool;
    *rest = tok->next;
    return n;
  }
  if (tok_equal(tok, "static_cast") || tok_equal(tok, "reinterpret_cast") || tok_equal(tok, "const_cast")) {
    Token *start = tok;
    tok = skip(tok->next, "<");
    Type *ty = typename_(&tok, tok);
    tok = skip(tok, ">");
    tok = skip(tok, "(");
    Node *n = new_node(ND_CAST, start);
    n->lhs = expr(&tok, tok);
    add_type(n->lhs);
    n->cast_ty = ty;
    *rest = skip(tok, ")");
    return n;
  }
  if (tok_equal(tok, "[")) error_tok(tok, "unsupported C++: lambdas");
  if (tok_equal(tok, "this")) error_tok(tok, "unsupported C++: 'this'");
  if (tok->kind == TK_KEYWORD && is_typename(tok) && tok_equal(tok->next, "(")) {
    /* C++ functional cast: float(x) */
    Token *start = tok;
    Type *ty = declspec(&tok, tok, NULL);
    tok = skip(tok, "(");
    Node *n = new_node(ND_CAST, start);
    n->lhs = expr(&tok, tok);
    add_type(n->lhs);
    n->cast_ty = ty;
    *rest = skip(tok, ")");
    return n;
  }
  if (tok->kind == TK_IDENT) {
    if (tok_equal(tok->next, "::")) error_tok(tok, "unsupported C++: qualified names ('::')");
    if (tok_equal(tok, "threadIdx") || tok_equal(tok, "blockIdx") || tok_equal(tok, "blockDim") || tok_equal(tok, "gridDim"))
      return special_reg(rest, tok);
    if (tok_equal(tok, "warpSize")) {
      Node *n = new_node(ND_SPECIAL, tok);
      n->sreg = SR_WARPSIZE;
      n->ty = ty_int;
      *rest = tok->next;
      return n;
    }
    if (tok_equal(tok->next, "<<<")) return launch_expr(rest, tok);
    Type *td = find_typedef(tok);
    if (td && is_dim3(td) && tok_equal(tok->next, "(")) return dim3_ctor(rest, tok);
    if (td && td->is_vector && tok_equal(tok->next, "(")) {   /* C++: float2(x, y), dim3(16, 16) */
      Node *call = new_node(ND_CALL, tok);
      call->args = func_args(rest, tok->next->next, call);
      return make_vector_call(tok, td, call);
    }
    if (td && tok_equal(tok->next, "(")) {
      Token *start = tok;
      tok = skip(tok->next, "(");
      Node *n = new_node(ND_CAST, start);
      n->lhs = expr(&tok, tok);
      add_type(n->lhs);
      n->cast_ty = td;
      *rest = skip(tok, ")");
      return n;
    }
    VarScope *vs = find_template(tok);
    if (vs && vs->tmpl) return template_call(rest, tok, vs->tmpl);
    const char *cgf = vs ? NULL : cg_member(tok);
    if (cgf && (!strcmp(cgf, "this_thread_block") || !strcmp(cgf, "this_grid") || !strcmp(cgf, "tiled_partition") || !strcmp(cgf, "sync") || !strcmp(cgf, "reduce")))
      return cg_call(rest, tok, cgf);
    if (tok_equal(tok->next, "(")) return funcall(rest, tok);
    if (vs && vs->var) {
      if (vs->var->sc == SC_FUNC) error_tok(tok, "function '%s' used as a value (function pointers are not supported)", vs->var->name);
      *rest = tok->next;
      Node *v = new_var(vs->var, tok);
      if (vs->vla_array) {   /* a local VLA: the array its hidden pointer holds */
        v = new_unary(ND_DEREF, v, tok);
        v->implicit = true;
        add_type(v);
        return v;
      }
      if (vs->var->ty->is_ref && vs->var->ty->kind == TY_PTR) {   /* a reference: what it refers to */
        v = new_unary(ND_DEREF, v, tok);
        v->implicit = true;
      }
      return v;
    }
    if (vs && vs->enum_ty && vs->tparam) {   /* a template's value parameter: its value */
      Node *n = new_num(vs->enum_val, tnum_token(tok, vs->enum_val));
      n->ty = vs->enum_ty->kind == TY_ENUM ? ty_int : unqual(vs->enum_ty);
      *rest = tok->next;
      return n;
    }
    if (vs && vs->enum_ty) {
      Node *n = new_num(vs->enum_val, tok);
      *rest = tok->next;
      return n;
    }
    if (vs && vs->type_def) error_tok(tok, "unexpected type name '%.*s' in an expression", tok->len, tok->loc);
    error_tok(tok, "use of undeclared identifier '%.*s'", tok->len, tok->loc);
  }
  if (tok->kind == TK_EOF) error_tok(tok, "expected an expression at end of input");
  if (tok->kind == TK_PRAGMA) error_tok(tok, "unexpected #pragma inside an expression");
  error_tok(tok, "expected an expression before '%.*s'", tok->len, tok->loc);
}

/* ---------------- C++ names ---------------- */
/* "a :: b :: c" (and "::c") become one identifier token spelled "a::b::c", located at its
 * first token (a copy kept as its origin): every lookup then sees a qualified name whole */
static void merge_qualified(Token *tok) {
  Token *prev = NULL;
  for (Token *t = tok; t && t->kind != TK_EOF; prev = t, t = t->next) {
    if (t->kind == TK_PRAGMA && t->pragma_toks) merge_qualified(t->pragma_toks);
    bool lead = tok_equal(t, "::") && t->next->kind == TK_IDENT && !(prev && (prev->kind == TK_IDENT || tok_equal(prev, ">")));
    bool ident = t->kind == TK_IDENT && tok_equal(t->next, "::") && t->next->next->kind == TK_IDENT;
    if (!lead && !ident) continue;
    Buf b = {0};
    Token *last = t;
    if (lead) { buf_puts(&b, "::"); last = t->next; }
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

static void add_item(TopKind k, Obj *o, Type *ty, const char *name, Token *tok);
static TopItem *last_item;
static Token *decl_start;   /* the first token of the file-scope declaration being parsed */

/* namespace N { | namespace { | namespace A = B; | using namespace N; | using N::x;
 * returns the token after it; *opened tells the caller a namespace body begins */
static Token *namespace_directive(Token *tok, bool *opened) {
  Token *start = tok;
  *opened = false;
  if (tok_equal(tok, "namespace")) {
    tok = tok->next;
    if (tok->kind == TK_IDENT && tok_equal(tok->next, "=")) {
      if (tok->next->next->kind != TK_IDENT) error_tok(tok->next->next, "expected a namespace name");
      ns_aliases = xrealloc(ns_aliases, sizeof(NsAlias) * (size_t)(n_ns_aliases + 1));
      Token *target = tok->next->next;
      int len = target->len;
      const char *t = resolve_alias(target->loc, &len);
      ns_aliases[n_ns_aliases++] = (NsAlias){tok_text(tok), arena_strndup(t, (size_t)len)};
      tok = skip(target->next, ";");
      add_item(TOP_RAW, NULL, NULL, NULL, start);
      last_item->end = tok;
      return tok;
    }
    char *name = NULL;
    if (tok->kind == TK_IDENT) { name = tok_text(tok); tok = tok->next; }
    if (!tok_equal(tok, "{")) error_tok(tok, "expected '{' after the namespace name");
    if (name) cur_ns = cur_ns ? fmt("%s::%s", cur_ns, name) : name;
    *opened = true;
    return tok->next;
  }
  tok = tok->next;   /* using */
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
    using_ns = xrealloc(using_ns, sizeof(char *) * (size_t)(n_using + 1));
    using_ns[n_using++] = arena_strndup(t, (size_t)len);
    tok = skip(n->next, ";");
  } else {
    /* using N::x; : x names what N::x names */
    if (tok->kind != TK_IDENT || !memchr(tok->loc, ':', (size_t)tok->len)) error_tok(tok, "unsupported C++: this 'using' declaration");
    VarScope *v = find_var(tok);
    const char *last = tok->loc + tok->len;
    while (last > tok->loc && last[-1] != ':') last--;
    if (!v) error_tok(tok, "no declaration of '%.*s' to use", tok->len, tok->loc);
    VarScope *u = push_global(arena_strndup(last, (size_t)(tok->loc + tok->len - last)));
    u->var = v->var; u->type_def = v->type_def; u->enum_ty = v->enum_ty; u->enum_val = v->enum_val;
    tok = skip(tok->next, ";");
  }
  add_item(TOP_RAW, NULL, NULL, NULL, start);
  last_item->end = tok;
  return tok;
}

/* ---------------- top level ---------------- */
static Obj **funcs_tail;
static bool in_prelude;   /* reading the host runtime's declarations: none is a top-level item */
static void add_item(TopKind k, Obj *o, Type *ty, const char *name, Token *tok) {
  /* host code is not printed (carve print shows the device code): its functions are not items */
  if (in_prelude || (k == TOP_FUNC && o && o->is_host && !o->is_device)) return;
  TopItem *it = arena_alloc(sizeof(TopItem));
  it->kind = k; it->obj = o; it->ty = ty; it->name = name; it->tok = tok;
  it->ns = cur_ns;
  if (last_item) last_item->next = it; else prog->items = it;
  last_item = it;
}

static Obj *find_func(const char *name) {
  VarScope *v = find_var_n(name, (int)strlen(name));
  while (v && !(v->var && v->var->sc == SC_FUNC)) v = NULL;
  return v ? v->var : NULL;
}

/* function = declspec declarator ("{" compound-stmt | ";") */
static void function(Token **rest, Token *tok, Type *ty, VarAttr *attr) {
  Token *name = ty->name;
  if (!name) error_tok(tok, "function name omitted");
  char *fname = ns_qualify(tok_text(name));
  if (ty->return_ty->is_ref || has_auto(ty->return_ty))
    error_tok(name, "unsupported C++: %s return type", ty->return_ty->is_ref ? "a reference" : "an 'auto'");
  if (attr->global && ty->return_ty->kind != TY_VOID) error_tok(name, "__global__ function '%s' must have a void return type", fname);
  if (attr->shared || attr->constant) error_tok(attr->cuda_tok, "'%.*s' cannot be applied to a function", attr->cuda_tok->len, attr->cuda_tok->loc);
  if (attr->global && attr->device) error_tok(attr->cuda_tok, "a function cannot be both __global__ and __device__");
  Obj *prev = find_func(fname);
  Obj *fn = prev;
  if (!fn) {
    fn = new_obj(fname, ty, name, SC_FUNC);
    *funcs_tail = fn;
    funcs_tail = &fn->next;
    /* functions live in the global scope (so recursion and later calls see them) */
    push_global(fname)->var = fn;
  } else if (prev->is_definition && tok_equal(tok, "{")) {
    error_tok(name, "redefinition of '%s'", fname);
  }
  fn->ty = ty;
  fn->tok = name;
  fn->def_start = decl_start;
  fn->is_kernel = attr->global;
  fn->is_device = attr->device || (!attr->global && !attr->host);
  fn->is_host = attr->host;
  fn->is_inline = attr->is_inline;
  fn->is_constexpr = attr->is_constexpr;
  if (fn->is_constexpr) ty->return_ty = unqual(ty->return_ty);   /* constexpr's const is the function's */
  fn->is_forceinline = attr->forceinline;
  fn->launch_bounds[0] = attr->launch_bounds[0];
  fn->launch_bounds[1] = attr->launch_bounds[1];
  if (consume(rest, tok, ";")) { add_item(TOP_FUNC, fn, NULL, NULL, name); return; }
  if (!tok_equal(tok, "{")) {
    if (tok->kind == TK_EOF && tok->prev) error_after(tok->prev, fmt("expected '{' or ';' after the declaration of '%s'", fname));
    error_tok(tok, "expected '{' or ';' after the declaration of '%s'", fname);
  }
  fn->is_definition = true;
  cur_fn = fn;
  fn->locals = NULL;
  loop_depth = switch_depth = 0;
  cur_switch = NULL;
  enter_scope();
  bool host = fn->is_host && !fn->is_device;
  for (Type *p = ty->params; p; p = p->next) {
    if (!p->name) error_tok(name, "parameter name omitted in the definition of '%s'", fname);
    vla_param_counts(p, host);   /* among the parameters before p */
    new_local(tok_text(p->name), p, p->name, SC_PARAM);
  }
  /* params: the first locals, in order */
  fn->params = NULL;
  {
    Obj **pp = &fn->params;
    int np = 0;
    for (Type *p = ty->params; p; p = p->next) np++;
    Obj *l = fn->locals;
    for (int i = 0; i < np && l; i++, l = l->next_local) { *pp = l; pp = &l->next; }
    *pp = NULL;
  }
  if (host) vla_function_start(ty);
  fn_body_pending = true;
  fn->body = compound_stmt(rest, tok->next);
  if (host) vla_function_end(fn->body);
  leave_scope();
  add_item(TOP_FUNC, fn, NULL, NULL, name);
  cur_fn = NULL;
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
    memset(n, 0, sizeof *n);   /* printed as the folded value: the tokens said something else */
    n->kind = ND_NUM;
    n->ival = v;
    n->ty = ty;
    n->next = next;
    return;
  }
  error_tok(n->tok, "initializer of a file-scope variable must be a constant (a literal or an integer constant expression)");
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
    if (ty->is_ref || has_auto(ty)) error_tok(ty->name, "unsupported C++: %s at file scope", ty->is_ref ? "references" : "'auto' variables");
    StorageClass sc = attr->constant ? SC_CONSTANT : attr->shared ? (attr->is_extern ? SC_EXTERN_SHARED : SC_SHARED) : host_const ? SC_CONSTANT :
                      attr->host ? SC_HOST_GLOBAL : SC_DEVICE_GLOBAL;
    if (sc == SC_SHARED) error_tok(ty->name, "unsupported: __shared__ variables at file scope; declare them inside the kernel");
    if (sc == SC_EXTERN_SHARED) {   /* the dynamic shared area, named at file scope */
      if (!(ty->kind == TY_ARRAY && ty->array_len < 0)) error_tok(ty->name, "extern __shared__ variable must be an array of unspecified size");
      Obj *v = new_obj(ns_qualify(tok_text(ty->name)), ty, ty->name, sc);
      v->is_extern = true;
      v->align = attr->align;
      push_scope(v->name)->var = v;
      Obj **pp = &prog->globals;
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
      if (ty->kind == TY_ARRAY && ty->array_len < 0) { v->ty = array_of(ty->base, (int)v->init->ival); v->ty->name = ty->name; }
    } else if (host_const) {
      error_tok(ty->name, "const variable '%s' needs an initializer", v->name);
    }
    if (v->ty->kind == TY_VOID || v->ty->size < 0 || (v->ty->kind == TY_ARRAY && v->ty->array_len < 0))
      error_tok(ty->name, "variable '%s' has incomplete type", v->name);
    int *area = sc == SC_CONSTANT ? &prog->constant_size : sc == SC_HOST_GLOBAL ? &prog->host_global_size : &prog->device_global_size;
    int a = v->ty->align < 16 ? 16 : v->ty->align;
    if (a < v->align) a = v->align;
    v->offset = (*area + a - 1) / a * a;
    *area = v->offset + v->ty->size;
    if (sc == SC_CONSTANT && !host_const && prog->constant_size > 65536)
      error_tok(ty->name, "__constant__ memory exceeds 64 KiB");
    push_scope(v->name)->var = v;
    if (sc == SC_HOST_GLOBAL) { v->next = prog->host_globals; prog->host_globals = v; continue; }
    Obj **pp = &prog->globals;
    while (*pp) pp = &(*pp)->next;
    *pp = v;
    add_item(TOP_VAR, v, NULL, NULL, ty->name);
  }
  *rest = tok;
}

/* Skip one top-level declaration without parsing it: up to a ';' at depth 0, or past the
 * balanced "{...}" of a function body or namespace. */
static Token *skip_declaration(Token *tok) {
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
typedef enum { DECL_DEVICE, DECL_HOST, DECL_TYPE, DECL_TEMPLATE, DECL_NAMESPACE, DECL_CONST } DeclClass;

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
    if (tok_equal(t, "__global__") || tok_equal(t, "__device__") || tok_equal(t, "__constant__") || tok_equal(t, "__shared__")) {
      *has_device = true;
      return DECL_DEVICE;
    }
    if (tok_equal(t, "typedef") || tok_equal(t, "struct") || tok_equal(t, "enum") || tok_equal(t, "union") || tok_equal(t, "class")) is_type = true;
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
  static const char *const kinds[] = {"unknown type name", "expected a type before", "use of undeclared identifier",
                                      "initializer of a file-scope variable must be a constant", "no member named",
                                      "unsupported C++"};
  for (size_t i = 0; i < sizeof kinds / sizeof *kinds; i++)
    if (!strncmp(msg, kinds[i], strlen(kinds[i]))) return true;
  return false;
}

/* whether a declaration begins with a name that is no type carve knows, used as one
 * ("cudaArray *a;", "extern \"C\" cudaTextureObject_t t;"): a type of a header carve does not read */
static bool unknown_type_first(Token *tok) {
  while (tok_equal(tok, "static") || tok_equal(tok, "extern") || tok_equal(tok, "const") || tok_equal(tok, "constexpr") || tok_equal(tok, "volatile") ||
         tok_equal(tok, "inline") || tok->kind == TK_STR)
    tok = tok->next;
  if (tok->kind != TK_IDENT || is_typename(tok)) return false;
  Token *n = tok->next;
  return n->kind == TK_IDENT || tok_equal(n, "*") || tok_equal(n, "&") || tok_equal(n, "<") || tok_equal(n, "::");
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
  for (Token *t = tok; t->kind != TK_EOF && !tok_equal(t, ";") && !tok_equal(t, "{"); prev = t, t = t->next)
    if (tok_equal(t, "(")) {
      if (prev && prev->kind == TK_IDENT) {
        host_funcs = xrealloc(host_funcs, sizeof(char *) * (size_t)(n_host_funcs + 1));
        host_funcs[n_host_funcs++] = tok_text(prev);
        HostSkip *h = arena_alloc(sizeof(HostSkip));
        h->name = tok_text(prev);
        h->loc = diag_last_loc;
        h->msg = arena_strdup(diag_last_msg);
        h->next = prog->host_skipped;
        prog->host_skipped = h;
      }
      return;
    }
}

/* a __device__ function whose definition did not parse: its Obj (declared, no body) keeps the
 * error, so that a call that reaches it faults naming the cause, not "declared but never defined"
 * (warpAggregatedAtomicsCG's atomicAggInc, whose body uses coalesced_group) */
static void record_device_failure(Token *tok) {
  Token *prev = NULL;
  for (Token *t = tok; t->kind != TK_EOF && !tok_equal(t, ";") && !tok_equal(t, "{"); prev = t, t = t->next)
    if (tok_equal(t, "(")) {
      Obj *f = prev && prev->kind == TK_IDENT ? find_func(ns_qualify(tok_text(prev))) : NULL;
      if (f && !f->body) {
        SrcLoc l = diag_last_loc;
        f->unread = l.file ? fmt("%s:%d:%d: %s", l.file->name, l.line, l.col, diag_last_msg) : arena_strdup(diag_last_msg);
      }
      return;
    }
}

/* ---------------- host programs ---------------- */
/* What a host program uses from <stdio.h>, <stdlib.h>, <string.h>, <time.h>, <sys/time.h> and
 * <cuda_runtime.h>, declared as C: carve's host runtime (src/interp/host.c) implements each
 * function here, by name. Names the device code also uses (printf, abs, min, max, clock, the
 * math library) are the parser's builtins and are not declared again. The enumerators' values
 * are CUDA's (driver_types.h: cudaError, cudaMemcpyKind); the structs hold the fields programs
 * read, in an order of carve's. Out-parameters of type T** are declared void * so that
 * cudaMalloc(&p, n) takes a float ** as CUDA's C++ overloads do. */
static const char host_prelude_text[] =
  "typedef enum cudaError { cudaSuccess = 0, cudaErrorInvalidValue = 1, cudaErrorMemoryAllocation = 2,\n"
  "  cudaErrorInitializationError = 3, cudaErrorInvalidConfiguration = 9, cudaErrorInvalidDevicePointer = 17,\n"
  "  cudaErrorInvalidMemcpyDirection = 21, cudaErrorInvalidResourceHandle = 400, cudaErrorNotReady = 600,\n"
  "  cudaErrorIllegalAddress = 700, cudaErrorLaunchFailure = 719 } cudaError_t;\n"
  "enum cudaMemcpyKind { cudaMemcpyHostToHost = 0, cudaMemcpyHostToDevice = 1, cudaMemcpyDeviceToHost = 2,\n"
  "  cudaMemcpyDeviceToDevice = 3, cudaMemcpyDefault = 4 };\n"
  "enum { cudaMemAttachGlobal = 1, cudaMemAttachHost = 2, cudaHostAllocDefault = 0, cudaEventDefault = 0,\n"
  "  cudaStreamDefault = 0, cudaStreamNonBlocking = 1, RAND_MAX = 2147483647, EXIT_SUCCESS = 0, EXIT_FAILURE = 1,\n"
  "  CLOCKS_PER_SEC = 1000000, CLOCK_REALTIME = 0, CLOCK_MONOTONIC = 1 };\n"
  "typedef struct CUevent_st *cudaEvent_t;\n"
  "typedef struct CUstream_st *cudaStream_t;\n"
  "typedef struct carve_FILE FILE;\n"
  "typedef long clock_t;\n"
  "typedef long time_t;\n"
  "struct timeval { long tv_sec; long tv_usec; };\n"
  "struct timespec { long tv_sec; long tv_nsec; };\n"
  "struct cudaDeviceProp { char name[256]; size_t totalGlobalMem; size_t sharedMemPerBlock; int regsPerBlock;\n"
  "  int warpSize; int maxThreadsPerBlock; int maxThreadsDim[3]; int maxGridSize[3]; int clockRate;\n"
  "  size_t totalConstMem; int major; int minor; int multiProcessorCount; int memoryClockRate;\n"
  "  int memoryBusWidth; int l2CacheSize; int maxThreadsPerMultiProcessor; size_t sharedMemPerMultiprocessor;\n"
  "  int regsPerMultiprocessor; size_t sharedMemPerBlockOptin; int maxBlocksPerMultiProcessor;\n"
  "  int concurrentKernels; int deviceOverlap; int managedMemory; int unifiedAddressing; };\n"
  "typedef struct cudaDeviceProp cudaDeviceProp;\n"
  "extern FILE *stdin, *stdout, *stderr;\n"
  "void *malloc(size_t); void *calloc(size_t, size_t); void *realloc(void *, size_t); void free(void *);\n"
  "int posix_memalign(void *, size_t, size_t); void *aligned_alloc(size_t, size_t);\n"
  "void *memcpy(void *, const void *, size_t); void *memmove(void *, const void *, size_t);\n"
  "void *memset(void *, int, size_t); int memcmp(const void *, const void *, size_t);\n"
  "size_t strlen(const char *); int strcmp(const char *, const char *); int strncmp(const char *, const char *, size_t);\n"
  "char *strcpy(char *, const char *); char *strncpy(char *, const char *, size_t);\n"
  "char *strcat(char *, const char *); char *strncat(char *, const char *, size_t);\n"
  "char *strchr(const char *, int); char *strrchr(const char *, int); char *strstr(const char *, const char *);\n"
  "unsigned int sleep(unsigned int); int usleep(unsigned int);\n"
  "int rand(void); void srand(unsigned int); double drand48(void); void srand48(long);\n"
  "int atoi(const char *); long atol(const char *); double atof(const char *);\n"
  "long strtol(const char *, void *, int); unsigned long strtoul(const char *, void *, int); double strtod(const char *, void *);\n"
  "int __carve_printf(const char *, ...); int fprintf(FILE *, const char *, ...); int sprintf(char *, const char *, ...);\n"
  "int snprintf(char *, size_t, const char *, ...); int puts(const char *); int putchar(int);\n"
  "int fputs(const char *, FILE *); int fputc(int, FILE *); int fflush(FILE *);\n"
  "void exit(int); void abort(void);\n"
  "time_t time(void *); int gettimeofday(struct timeval *, void *); int clock_gettime(int, struct timespec *);\n"
  "cudaError_t cudaMalloc(void *, size_t); cudaError_t cudaMallocManaged(void *, size_t, ...);\n"
  "cudaError_t cudaMallocHost(void *, size_t); cudaError_t cudaHostAlloc(void *, size_t, unsigned int);\n"
  "cudaError_t cudaFree(void *); cudaError_t cudaFreeHost(void *);\n"
  "cudaError_t cudaMemcpy(void *, const void *, size_t, enum cudaMemcpyKind);\n"
  "cudaError_t cudaMemcpyAsync(void *, const void *, size_t, enum cudaMemcpyKind, ...);\n"
  "cudaError_t cudaMemset(void *, int, size_t); cudaError_t cudaMemsetAsync(void *, int, size_t, ...);\n"
  "cudaError_t cudaMemcpyToSymbol(const void *, const void *, size_t, ...);\n"
  "cudaError_t cudaMemcpyFromSymbol(void *, const void *, size_t, ...);\n"
  "cudaError_t cudaDeviceSynchronize(void); cudaError_t cudaThreadSynchronize(void);\n"
  "cudaError_t cudaDeviceReset(void); cudaError_t cudaThreadExit(void);\n"
  "cudaError_t cudaGetLastError(void); cudaError_t cudaPeekAtLastError(void);\n"
  "const char *cudaGetErrorString(cudaError_t); const char *cudaGetErrorName(cudaError_t);\n"
  "cudaError_t cudaGetDeviceCount(int *); cudaError_t cudaGetDevice(int *); cudaError_t cudaSetDevice(int);\n"
  "cudaError_t cudaGetDeviceProperties(struct cudaDeviceProp *, int);\n"
  "cudaError_t cudaEventCreate(cudaEvent_t *); cudaError_t cudaEventCreateWithFlags(cudaEvent_t *, unsigned int);\n"
  "cudaError_t cudaEventRecord(cudaEvent_t, ...); cudaError_t cudaEventSynchronize(cudaEvent_t);\n"
  "cudaError_t cudaEventQuery(cudaEvent_t);\n"
  "cudaError_t cudaEventElapsedTime(float *, cudaEvent_t, cudaEvent_t); cudaError_t cudaEventDestroy(cudaEvent_t);\n"
  "cudaError_t cudaStreamCreate(cudaStream_t *); cudaError_t cudaStreamCreateWithFlags(cudaStream_t *, unsigned int);\n"
  "cudaError_t cudaStreamSynchronize(cudaStream_t); cudaError_t cudaStreamDestroy(cudaStream_t);\n"
  /* C99 variable-length arrays: the parser's lowering calls these (the VLA section) */
  "size_t __carve_vla_size(long, size_t); void *__carve_vla_alloc(size_t, void *); void __carve_vla_free(void *);\n"
  /* <sys/time.h>'s timezone (gettimeofday's second argument, ignored); the legacy cudaThread*
   * calls CUDA 13 removed and their cudaDevice* successors (limits and cache preference) */
  "struct timezone { int tz_minuteswest; int tz_dsttime; };\n"
  "enum cudaLimit { cudaLimitStackSize = 0, cudaLimitPrintfFifoSize = 1, cudaLimitMallocHeapSize = 2 };\n"
  "enum cudaFuncCache { cudaFuncCachePreferNone = 0, cudaFuncCachePreferShared = 1, cudaFuncCachePreferL1 = 2,\n"
  "  cudaFuncCachePreferEqual = 3 };\n"
  "cudaError_t cudaThreadSetLimit(enum cudaLimit, size_t); cudaError_t cudaThreadGetLimit(size_t *, enum cudaLimit);\n"
  "cudaError_t cudaDeviceSetLimit(enum cudaLimit, size_t); cudaError_t cudaDeviceGetLimit(size_t *, enum cudaLimit);\n"
  "cudaError_t cudaThreadSetCacheConfig(enum cudaFuncCache); cudaError_t cudaThreadGetCacheConfig(void *);\n"
  "cudaError_t cudaDeviceSetCacheConfig(enum cudaFuncCache); cudaError_t cudaDeviceGetCacheConfig(void *);\n";

static void host_prelude(void) {
  Token *tok = tokenize_string("<host runtime>", host_prelude_text);
  convert_pp_tokens(tok);
  in_prelude = true;
  while (tok->kind != TK_EOF) toplevel(&tok, tok, false);
  in_prelude = false;
}

static bool in_host_fn(void) { return cur_fn && cur_fn->is_host && !cur_fn->is_device; }

/* cudaMemcpyToSymbol(sym, ...) takes the variable itself (a C++ reference in CUDA's headers):
 * a scalar or struct __constant__/__device__ variable is passed by its address, as an array is */
static void symbol_arg(Obj *fn, Node *call) {
  int i = !strcmp(fn->name, "cudaMemcpyToSymbol") ? 0 : !strcmp(fn->name, "cudaMemcpyFromSymbol") ? 1 : -1;
  if (i < 0 || call->nargs <= i) return;
  Node **a = nthp(&call->args, i);
  Node *v = *a;
  if (v->kind != ND_VAR || (v->var->sc != SC_CONSTANT && v->var->sc != SC_DEVICE_GLOBAL) || v->ty->kind == TY_ARRAY) return;
  Node *next = v->next;
  v->next = NULL;
  Node *addr = new_unary(ND_ADDR, v, v->tok);
  add_type(addr);
  addr->next = next;
  *a = addr;
}

/* dim3: the predefined uint3 whose omitted components are 1 (builtin_typedef) */
static bool is_dim3(const Type *t) { return t && t->typedef_name && !strcmp(t->typedef_name, "dim3"); }

/* dim3(x, y, z) with the missing dimensions 1, as CUDA's constructor: a make_vector call */
static Node *dim3_call(Token *name, Node *call, Type *t) {
  if (call->nargs > 3) error_tok(name, "dim3 takes at most 3 dimensions, %d given", call->nargs);
  if (call->nargs == 1 && is_dim3(call->args->ty)) return call->args;   /* a copy */
  Node **a = &call->args;
  for (int i = 0; i < 3; i++, a = &(*a)->next) {
    if (!*a) { *a = new_num(1, name); (*a)->ty = ty_uint; }
    if (!is_integer((*a)->ty)) error_tok((*a)->tok, "a dim3 dimension must be an integer, not '%s'", type_name((*a)->ty));
    coerce_arg(a, ty_uint);
  }
  call->nargs = 3;
  call->builtin = BI_MAKE_VECTOR;
  call->ty = t;
  return call;
}

/* dim3-ctor = "dim3" "(" (assign ("," assign)*)? ")" */
static Node *dim3_ctor(Token **rest, Token *tok) {
  Node *call = new_node(ND_CALL, tok);
  call->args = func_args(rest, tok->next->next, call);
  return dim3_call(tok, call, find_typedef(tok));
}

/* dim3-declarator = ident ("(" args ")" | "=" "{" args "}" | "=" assign)?: CUDA's constructors;
 * without an initializer every dimension is 1 */
static Node *dim3_declarator(Token **rest, Token *tok, Type *base) {
  if (tok->kind != TK_IDENT) error_tok(tok, "expected a variable name");
  Token *name = tok;
  Node *init;
  tok = tok->next;
  if (tok_equal(tok, "(") || (tok_equal(tok, "=") && tok_equal(tok->next, "{"))) {
    Node *call = new_node(ND_CALL, name);
    if (tok_equal(tok, "(")) call->args = func_args(&tok, tok->next, call);
    else {
      Token *open = tok->next;
      Node head = {0}, *cur = &head;
      tok = open->next;
      while (!consume(&tok, tok, "}")) {
        if (cur != &head) tok = skip(tok, ",");
        cur = cur->next = assign(&tok, tok);
        add_type(cur);
        call->nargs++;
      }
      call->args = head.next;
    }
    init = dim3_call(name, call, base);
  } else if (consume(&tok, tok, "=")) {
    init = assign(&tok, tok);
    add_type(init);
    if (is_integer(init->ty)) {   /* dim3 g = 256: the converting constructor */
      Node *call = new_node(ND_CALL, name);
      call->args = init;
      call->nargs = 1;
      init = dim3_call(name, call, base);
    } else if (!is_dim3(init->ty)) error_tok(init->tok, "cannot initialize a dim3 with '%s'", type_name(init->ty));
  } else {
    init = dim3_call(name, new_node(ND_CALL, name), base);
  }
  Obj *var = new_local(tok_text(name), base, name, SC_LOCAL);
  Node *d = new_node(ND_DECL, name);
  d->var = var;
  d->ty = base;
  d->decl_init = init;
  var->init = init;
  *rest = tok;
  return d;
}

/* launch-config operand: an integer or a dim3 */
static Node *launch_operand(Token **rest, Token *tok, const char *what, bool dim) {
  Node *e = assign(rest, tok);
  add_type(e);
  if (is_integer(e->ty) || (dim && is_dim3(e->ty)) || (!dim && e->ty->kind == TY_PTR && !strcmp(what, "stream"))) return e;
  error_tok(e->tok, "the launch's %s must be %s, not '%s'", what, dim ? "an integer or a dim3" : !strcmp(what, "stream") ? "a cudaStream_t" : "an integer",
            type_name(e->ty));
}

/* launch = ident "<<<" grid "," block ("," shmem ("," stream)?)? ">>>" "(" args ")" */
static Node *launch_expr(Token **rest, Token *tok) {
  Token *name = tok;
  VarScope *vs = find_var(name);
  Obj *k = vs && vs->var && vs->var->sc == SC_FUNC ? vs->var : NULL;
  if (!in_host_fn()) error_tok(tok->next, "a kernel launch in device code (dynamic parallelism) is not supported");
  if (!k) error_tok(name, "'%.*s' is launched but not declared as a __global__ function", name->len, name->loc);
  if (!k->is_kernel) error_tok(name, "'%s' is launched with <<<...>>> but is not a __global__ function", k->name);
  Node *n = new_node(ND_LAUNCH, name);
  n->fn = k;
  tok = tok->next->next;
  n->cond = launch_operand(&tok, tok, "grid", true);
  tok = skip(tok, ",");
  n->then = launch_operand(&tok, tok, "block", true);
  if (consume(&tok, tok, ",")) {
    n->els = launch_operand(&tok, tok, "dynamic shared memory size", false);
    if (consume(&tok, tok, ",")) n->inc = launch_operand(&tok, tok, "stream", false);
  }
  tok = skip(tok, ">>>");
  tok = skip(tok, "(");
  n->args = func_args(&tok, tok, n);
  fill_defaults(n, k->ty);
  int np = 0;
  for (Type *p = k->ty->params; p; p = p->next) np++;
  if (n->nargs != np)
    error_tok(name, "kernel '%s' takes %d argument%s, the launch gives %d", k->name, np, np == 1 ? "" : "s", n->nargs);
  int i = 0;
  for (Type *p = k->ty->params; p; p = p->next, i++) {
    /* carve's interpreted host passes each argument as one scalar: a struct by value would arrive
     * as zeros (silently wrong), so it is an error here and the nvcc route takes the program */
    if (p->kind == TY_STRUCT)
      error_tok((*nthp(&n->args, i))->tok, "unsupported: the %s '%s' passed by value to kernel '%s' from host code carve interprets "
                "(the nvcc route, host code built as C++ by nvcc, runs it: --route nvcc)", p->is_vector ? "vector" : "struct", type_name(p), k->name);
    coerce_arg(nthp(&n->args, i), p);
  }
  n->ty = ty_void;
  *rest = tok;
  return n;
}

Obj *find_host_function(Program *p, const char *name) {
  if (!name) name = "main";
  for (Obj *f = p->funcs; f; f = f->next)
    if (f->is_host && f->is_definition && f->body && !f->is_kernel && !strcmp(f->name, name)) return f;
  return NULL;
}

/* the host functions reachable from f by calls: the first one called whose body carve could not
 * read (a HostSkip) and, in *caller, the function that calls it; NULL when every callee that has
 * no body is a library function (the host runtime's) */
typedef struct { Program *p; Obj **seen; int n; HostSkip *hit; Obj *caller, *cur; } Unread;
static bool unread_call(Node *n, void *ctx);
static void unread_fn(Unread *u, Obj *f) {
  for (int i = 0; i < u->n; i++) if (u->seen[i] == f) return;
  u->seen = xrealloc(u->seen, sizeof(Obj *) * (size_t)(u->n + 1));
  u->seen[u->n++] = f;
  Obj *saved = u->cur;
  u->cur = f;
  if (f->body) walk(f->body, unread_call, NULL, u);
  u->cur = saved;
}
static bool unread_call(Node *n, void *ctx) {
  Unread *u = ctx;
  if (u->hit || n->kind != ND_CALL || !n->fn || n->fn->is_host_lib) return !u->hit;
  Obj *def = n->fn->body ? n->fn : find_host_function(u->p, n->fn->name);
  if (def) { unread_fn(u, def); return !u->hit; }
  for (HostSkip *h = u->p->host_skipped; h; h = h->next)
    if (!strcmp(h->name, n->fn->name)) { u->hit = h; u->caller = u->cur; return false; }
  return true;
}
HostSkip *host_unread_callee(Program *p, Obj *f, Obj **caller) {
  Unread u = {p, NULL, 0, NULL, NULL, NULL};
  unread_fn(&u, f);
  free(u.seen);
  if (caller) *caller = u.caller;
  return u.hit;
}

/* one declaration at file scope */
static void toplevel(Token **rest, Token *tok, bool host_const) {
  VarAttr attr = {0};
  Token *start = tok;
  decl_start = tok;
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
    if (last_item && (last_item->kind == TOP_STRUCT || last_item->kind == TOP_ENUM)) last_item->end = tok;
    *rest = tok->next;
    return;
  }
  Token *probe = tok;
  vla_host_decl = !attr.global && !attr.device;   /* a host function's parameters may be VLAs */
  Type *ty = declarator(&probe, tok, base);
  vla_host_decl = false;
  if (ty->kind == TY_FUNC) {
    /* a function without __global__ or __device__ is host code, parsed as C */
    if (!attr.global && !attr.device) attr.host = true;
    function(rest, probe, ty, &attr);
    if (in_prelude) { Obj *f = find_func(tok_text(ty->name)); f->is_host_lib = true; }
    return;
  }
  if (!attr.constant && !attr.device && !attr.shared && !host_const) attr.host = true;
  global_variable(rest, tok, base, &attr, host_const);
}

typedef struct { Token *tok; bool opened; char *saved; } NsCall;
static void namespace_call(void *ud) {
  NsCall *c = ud;
  c->tok = namespace_directive(c->tok, &c->opened);
}

/* one top-level declaration, as a protected call: an error drops this declaration only */
typedef struct { Token *tok; bool host_const; } TopCall;
static void toplevel_call(void *ud) {
  TopCall *c = ud;
  toplevel(&c->tok, c->tok, c->host_const);
}

/* ---------------- C++ templates (docs/cxx.md) ----------------
 * A function template is kept as its tokens. Each use with new arguments (a call in device
 * code, with arguments written or deduced; `#pragma carve launch k<256, float>`; an explicit
 * instantiation `template __global__ void k<256, float>(...);`) parses those tokens again in a
 * scope where each type parameter names the argument type and each value parameter is its
 * value: the instance is an ordinary function named "k<256, float>", printed back as an
 * explicit specialization after the template's declaration. */
enum { MAX_TPARAMS = 16, MAX_INSTANCE_DEPTH = 1024 };

/* Each nested template instance parses a whole function on the C stack (2 to 4 KB a level at
 * -O2, several times that under ASan), so the depth is also bounded by the stack: an instance
 * is refused with a diagnostic once half the process's stack is used, leaving the other half
 * for parsing the function itself (whose nesting limits were measured to fit in it). */
static uintptr_t stack_base;   /* the frame of parse() or late_instance(), 0 outside them */
static size_t stack_limit(void) {
  struct rlimit rl;
  if (getrlimit(RLIMIT_STACK, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY && rl.rlim_cur < ((rlim_t)1 << 30)) return (size_t)rl.rlim_cur;
  return (size_t)8 << 20;
}
static bool stack_half_used(void) {
  uintptr_t here = (uintptr_t)__builtin_frame_address(0);
  return stack_base && here < stack_base && stack_base - here > stack_limit() / 2;
}
typedef struct { char *name; bool is_type; Type *vty; Token *deflt; } TParam;
typedef struct Template {
  char *name, *local;     /* "ns::k" and "k" */
  char *ns;
  Token *head, *decl, *fname;
  TParam params[MAX_TPARAMS];
  int nparams;
  bool is_kernel;
  int ninstances;
  struct Template *next_kernel;   /* the file's template kernels, for the warning on those never made */
  char **usings; int nusing;      /* the `using namespace` and aliases in force at the definition */
  NsAlias *aliases; int naliases;
} Template;
static Template *template_kernels;
typedef struct { Type *ty; int64_t val; bool set; } TArg;
static int instance_depth;

/* '>' closing a template argument list; a '>>' is split in two */
static Token *skip_angle(Token *tok) {
  if (tok_equal(tok, ">>")) {
    Token *second = arena_alloc(sizeof(Token));
    *second = *tok;
    second->loc++; second->len = 1; second->col++; second->origin = NULL; second->has_space = false;
    second->prev = tok;
    tok->len = 1;
    tok->next = second;
    if (second->next) second->next->prev = second;
  }
  return skip(tok, ">");
}

/* template-args = "<" (type-name | shift-expr) ("," ...)* ">" */
static Token *template_args(Token *tok, Template *t, TArg *args) {
  tok = skip(tok, "<");
  for (int i = 0; !tok_equal(tok, ">") && !tok_equal(tok, ">>"); i++) {
    if (i) tok = skip(tok, ",");
    if (i >= t->nparams) error_tok(tok, "too many template arguments for '%s'", t->name);
    if (t->params[i].is_type) {
      args[i].ty = typename_(&tok, tok);
    } else {
      Node *e = binary_level(&tok, tok, 7);   /* no '<' or '>' at the top: C++'s rule */
      add_type(e);
      if (!eval_const(e, &args[i].val)) error_tok(e->tok, "template argument for '%s' is not an integer constant", t->params[i].name);
    }
    args[i].set = true;
  }
  return skip_angle(tok);
}

/* the parameter declarations of the template's function, split at top-level commas */
static int template_fn_params(Template *t, Token **starts, int max) {
  Token *tok = t->fname->next;
  while (!tok_equal(tok, "(") && tok->kind != TK_EOF) tok = tok->next;
  int n = 0, depth = 0;
  for (tok = tok->next; tok->kind != TK_EOF && n < max; tok = tok->next) {
    if (depth == 0 && !tok_equal(tok, ")") && (n == 0 || tok_equal(tok->prev, ","))) starts[n++] = tok;
    if (tok_equal(tok, "(") || tok_equal(tok, "<") || tok_equal(tok, "[")) depth++;
    else if (tok_equal(tok, "]") || tok_equal(tok, ">")) depth--;
    else if (tok_equal(tok, ")") && depth-- == 0) break;
  }
  return n;
}

/* T from a call's arguments: a parameter written "T x", "const T *x", "T &x" takes the
 * argument's type with as many pointer levels removed as it has '*' after T */
static void deduce_args(Template *t, Node *call_args, TArg *args) {
  Token *starts[32];
  int np = template_fn_params(t, starts, 32);
  Node *a = call_args;
  for (int i = 0; i < np && a; i++, a = a->next) {
    for (Token *p = starts[i]; p->kind != TK_EOF && !tok_equal(p, ",") && !tok_equal(p, ")"); p = p->next) {
      int k = 0;
      while (k < t->nparams && !(t->params[k].is_type && tok_equal(p, t->params[k].name))) k++;
      if (k == t->nparams || args[k].set) continue;
      Type *ty = a->ty;
      for (Token *q = p->next; tok_equal(q, "*") || tok_equal(q, "const") || tok_equal(q, "__restrict__"); q = q->next)
        if (tok_equal(q, "*")) { if (!is_pointer_like(ty)) goto next_param; ty = ty->base; }
      if (ty->kind == TY_ARRAY) ty = pointer_to(ty->base);
      args[k].ty = unqual(ty);
      args[k].set = true;
      break;
    }
  next_param:;
  }
}

static Token *tnum_token(Token *at, int64_t v) {
  Token *t = arena_alloc(sizeof(Token));
  *t = *at;
  t->kind = TK_NUM;
  t->loc = fmt("%lld", (long long)v);
  t->len = (int)strlen(t->loc);
  t->origin = at;
  t->macro = NULL;
  return t;
}

static char *instance_name(Template *t, TArg *args, bool local) {
  Buf b = {0};
  buf_printf(&b, "%s<", local ? t->local : t->name);
  for (int i = 0; i < t->nparams; i++) {
    if (i) buf_puts(&b, ", ");
    if (t->params[i].is_type) buf_puts(&b, type_name(args[i].ty));
    else if (t->params[i].vty->kind == TY_BOOL) buf_puts(&b, args[i].val ? "true" : "false");
    else buf_printf(&b, "%lld", (long long)args[i].val);
  }
  buf_putc(&b, '>');
  char *s = arena_strdup(b.s);
  buf_free(&b);
  return s;
}

typedef struct {
  Scope *scope; Obj *cur_fn; int loop_depth, switch_depth, block_depth, nest_depth, stmt_depth, expr_level;
  bool fn_body_pending; Node *cur_switch; char *cur_ns; int nbinds;
} ParserState;
static ParserState save_parser(void) {
  return (ParserState){scope, cur_fn, loop_depth, switch_depth, block_depth, nest_depth, stmt_depth, expr_level,
                       fn_body_pending, cur_switch, cur_ns, n_const_binds};
}
static void restore_parser(ParserState s) {
  scope = s.scope; cur_fn = s.cur_fn; loop_depth = s.loop_depth; switch_depth = s.switch_depth;
  block_depth = s.block_depth; nest_depth = s.nest_depth; stmt_depth = s.stmt_depth; expr_level = s.expr_level;
  fn_body_pending = s.fn_body_pending; cur_switch = s.cur_switch; cur_ns = s.cur_ns; n_const_binds = s.nbinds;
}

typedef struct { Template *t; TArg *args; char *local; Obj *fn; } InstCall;
static void instance_body(void *ud) {
  InstCall *c = ud;
  Template *t = c->t;
  Scope *file = scope;
  while (file->next) file = file->next;
  scope = arena_alloc(sizeof(Scope));
  scope->next = file;
  cur_fn = NULL; cur_switch = NULL; fn_body_pending = false;
  loop_depth = switch_depth = block_depth = nest_depth = stmt_depth = expr_level = 0;
  cur_ns = t->ns;
  using_ns = t->usings; n_using = t->nusing;
  ns_aliases = t->aliases; n_ns_aliases = t->naliases;
  for (int i = 0; i < t->nparams; i++) {
    VarScope *v = arena_alloc(sizeof(VarScope));
    v->name = t->params[i].name;
    v->next = scope->vars;
    scope->vars = v;
    if (t->params[i].is_type) v->type_def = c->args[i].ty;
    else { v->enum_ty = t->params[i].vty; v->enum_val = c->args[i].val; v->tparam = true; }
  }
  VarAttr attr = {0};
  Token *tok = t->decl;
  Type *base = declspec(&tok, tok, &attr);
  Type *ty = declarator(&tok, tok, base);
  if (ty->kind != TY_FUNC || !ty->name) error_tok(t->fname, "unsupported C++: this template (carve instantiates function templates)");
  Token *nm = arena_alloc(sizeof(Token));
  *nm = *ty->name;
  nm->loc = c->local;
  nm->len = (int)strlen(c->local);
  nm->origin = ty->name;
  nm->macro = NULL;
  ty->name = nm;
  Token *end;
  function(&end, tok, ty, &attr);
  c->fn = find_func(ns_qualify(c->local));
  if (c->fn) { c->fn->tmpl_head = t->head; t->ninstances++; }
}

/* the instance of t for args (defaults filled in), parsed once */
static Obj *instantiate(Template *t, TArg *args, Token *at) {
  for (int i = 0; i < t->nparams; i++) {
    if (args[i].set) continue;
    if (!t->params[i].deflt)
      error_tok(at, "cannot deduce the template argument '%s' of '%s': write %s<...>", t->params[i].name, t->name, t->local);
    Token *d = t->params[i].deflt;
    if (t->params[i].is_type) args[i].ty = typename_(&d, d);
    else args[i].val = const_expr(&d, d);
    args[i].set = true;
  }
  for (int i = 0; i < t->nparams; i++)
    if (t->params[i].is_type && (args[i].ty->kind == TY_VOID || has_auto(args[i].ty)) )
      error_tok(at, "template argument '%s' of '%s' cannot be '%s'", t->params[i].name, t->name, type_name(args[i].ty));
  InstCall c = {t, args, instance_name(t, args, true), NULL};
  char *full = instance_name(t, args, false);
  VarScope *have = find_global_n(full, (int)strlen(full));
  if (have && have->var) return have->var;
  if (instance_depth >= MAX_INSTANCE_DEPTH)
    error_tok(at, "template instances nested too deeply (%d, as clang's and nvcc's -ftemplate-depth; docs/limits.md) instantiating '%s'",
              MAX_INSTANCE_DEPTH, full);
  if (stack_half_used())
    error_tok(at, "template instances nested too deeply for carve's stack (%d levels; half of the %zu MiB stack used) instantiating '%s'",
              instance_depth, stack_limit() >> 20, full);
  ParserState saved = save_parser();
  char **su = using_ns; int sn = n_using;
  NsAlias *sa = ns_aliases; int sna = n_ns_aliases;
  instance_depth++;
  bool ok = carve_pcall(instance_body, &c);
  instance_depth--;
  restore_parser(saved);
  using_ns = su; n_using = sn; ns_aliases = sa; n_ns_aliases = sna;
  if (!ok || !c.fn) {
    note_tok(at, "in the instance '%s' of the template, required here", full);
    carve_throw();
  }
  return c.fn;
}

/* name<ARGS>(...) or name(...) where name is a function template */
static Node *template_call(Token **rest, Token *tok, Template *t) {
  Token *name = tok;
  TArg args[MAX_TPARAMS] = {{0}};
  tok = tok->next;
  if (tok_equal(tok, "<")) tok = template_args(tok, t, args);
  if (!tok_equal(tok, "(")) error_tok(tok, "expected '(' after the template '%s' (function templates are called)", t->name);
  Node *call = new_node(ND_CALL, name);
  call->args = func_args(rest, tok->next, call);
  deduce_args(t, call->args, args);
  Obj *fn = instantiate(t, args, name);
  return user_call(name, call, fn);
}

/* template-decl = "template" "<" tparam ("," tparam)* ">" function-definition
 * tparam = ("typename" | "class") ident ("=" type-name)? | declspec ident ("=" const-expr)? */
static Token *template_decl(Token *tok) {
  Template *t = arena_alloc(sizeof(Template));
  t->head = tok;
  tok = skip(tok->next, "<");
  while (!tok_equal(tok, ">")) {
    if (t->nparams) tok = skip(tok, ",");
    if (t->nparams == MAX_TPARAMS) error_tok(tok, "more than %d template parameters", MAX_TPARAMS);
    TParam *p = &t->params[t->nparams++];
    if (tok_equal(tok, "typename") || tok_equal(tok, "class")) {
      p->is_type = true;
      tok = tok->next;
    } else if (tok_equal(tok, "template")) {
      error_tok(tok, "unsupported C++: template template parameters");
    } else {
      p->vty = typename_(&tok, tok);
      if (!is_integer(p->vty)) error_tok(tok, "unsupported C++: a template parameter of type '%s' (integer and type parameters are)", type_name(p->vty));
    }
    if (tok_equal(tok, "...")) error_tok(tok, "unsupported C++: variadic templates");
    p->name = get_ident(tok);
    tok = tok->next;
    if (tok_equal(tok, "=")) {
      p->deflt = tok = tok->next;
      for (int depth = 0; tok->kind != TK_EOF; tok = tok->next) {
        if (depth == 0 && (tok_equal(tok, ",") || tok_equal(tok, ">"))) break;
        if (tok_equal(tok, "(") || tok_equal(tok, "<")) depth++;
        if (tok_equal(tok, ")") || tok_equal(tok, ">")) depth--;
      }
    }
  }
  t->decl = tok = tok->next;
  if (tok_equal(tok, "struct") || tok_equal(tok, "class") || tok_equal(tok, "union"))
    error_tok(tok, "unsupported C++: class templates (carve instantiates function templates)");
  Token *prev = NULL;
  for (; tok->kind != TK_EOF && !tok_equal(tok, "(") && !tok_equal(tok, ";") && !tok_equal(tok, "{"); prev = tok, tok = tok->next)
    if (tok_equal(tok, "__global__")) t->is_kernel = true;
  if (!tok_equal(tok, "(") || !prev || prev->kind != TK_IDENT) error_tok(t->decl, "unsupported C++: this template (carve instantiates function templates)");
  t->fname = prev;
  t->ns = cur_ns;
  t->nusing = n_using;
  t->usings = arena_alloc(sizeof(char *) * (size_t)(n_using + 1));
  if (n_using) memcpy(t->usings, using_ns, sizeof(char *) * (size_t)n_using);
  t->naliases = n_ns_aliases;
  t->aliases = arena_alloc(sizeof(NsAlias) * (size_t)(n_ns_aliases + 1));
  if (n_ns_aliases) memcpy(t->aliases, ns_aliases, sizeof(NsAlias) * (size_t)n_ns_aliases);
  t->local = tok_text(prev);
  t->name = ns_qualify(t->local);
  Token *end = skip_declaration(t->decl);
  Token *body = t->decl;
  while (body != end && !tok_equal(body, "{") && !tok_equal(body, ";")) body = body->next;
  add_item(TOP_RAW, NULL, NULL, NULL, t->head);
  last_item->end = body;
  VarScope *prior = find_global_n(t->name, (int)strlen(t->name));
  if (prior && prior->tmpl) {   /* a declaration before the definition: the definition wins */
    if (tok_equal(body, "{")) *prior->tmpl = *t;
  } else {
    push_global(t->name)->tmpl = t;
    if (t->is_kernel) { t->next_kernel = template_kernels; template_kernels = t; }
  }
  return end;
}

/* template __global__ void k<256, float>(float *);  (an explicit instantiation) */
static Token *explicit_instantiation(Token *tok) {
  Token *at = tok;
  for (tok = tok->next; tok->kind != TK_EOF && !tok_equal(tok, ";"); tok = tok->next) {
    VarScope *v = tok->kind == TK_IDENT && tok_equal(tok->next, "<") ? find_template(tok) : NULL;
    if (v && v->tmpl) {
      TArg args[MAX_TPARAMS] = {{0}};
      template_args(tok->next, v->tmpl, args);
      instantiate(v->tmpl, args, tok);
      return skip_declaration(at);
    }
  }
  error_tok(at, "expected an explicit instantiation of a function template");
}

/* template <> __global__ void k<256, float>(float *a) { ... }  (an explicit specialization,
 * which is how carve prints instances): the function is that instance */
static Token *explicit_specialization(Token *head) {
  Token *tok = head->next->next->next;
  for (Token *t = tok; t->kind != TK_EOF && !tok_equal(t, "(") && !tok_equal(t, ";"); t = t->next) {
    VarScope *v = t->kind == TK_IDENT && tok_equal(t->next, "<") ? find_var(t) : NULL;
    if (!v || !v->tmpl) continue;
    TArg args[MAX_TPARAMS] = {{0}};
    Token *after = template_args(t->next, v->tmpl, args);
    for (int i = 0; i < v->tmpl->nparams; i++)
      if (!args[i].set) error_tok(t, "an explicit specialization of '%s' names every template argument", v->tmpl->name);
    Token *orig = arena_alloc(sizeof(Token));
    *orig = *t;
    t->origin = orig;
    t->macro = NULL;
    t->loc = instance_name(v->tmpl, args, true);
    t->len = (int)strlen(t->loc);
    t->next = after;
    VarAttr attr = {0};
    Type *base = declspec(&tok, tok, &attr);
    Type *ty = declarator(&tok, tok, base);
    if (ty->kind != TY_FUNC) error_tok(t, "expected a function");
    Token *end;
    function(&end, tok, ty, &attr);
    Obj *fn = find_func(ns_qualify(tok_text(t)));
    if (fn) { fn->tmpl_head = head; v->tmpl->ninstances++; }
    return end;
  }
  error_tok(head, "expected an explicit specialization of a function template");
}

typedef struct { Token *tok; } TmplCall;
static void template_toplevel(void *ud) {
  TmplCall *c = ud;
  Token *t = c->tok;
  c->tok = !tok_equal(t->next, "<") ? explicit_instantiation(t)
         : tok_equal(t->next->next, ">") ? explicit_specialization(t) : template_decl(t);
}

/* `#pragma carve launch k<256, float> ...`: the instance is made, and the pragma's name
 * becomes its one token "k<256, float>" for the launch specification to find */
static void launch_pragma_instance(void *ud) {
  Token *name = ud;
  VarScope *v = find_template(name);
  if (!v || !v->tmpl) return;
  TArg args[MAX_TPARAMS] = {{0}};
  Token *after = template_args(name->next, v->tmpl, args);
  Obj *fn = instantiate(v->tmpl, args, name);
  Token *orig = arena_alloc(sizeof(Token));
  *orig = *name;
  name->origin = orig;
  name->macro = NULL;
  name->loc = fn->name;
  name->len = (int)strlen(fn->name);
  name->next = after;
}

static void instantiate_launches(void) {
  for (TopItem *it = prog->items; it; it = it->next) {
    Token *t = it->kind == TOP_PRAGMA ? it->tok->pragma_toks : NULL;
    if (!t || !tok_equal(t, "launch") || t->next->kind != TK_IDENT || !tok_equal(t->next->next, "<")) continue;
    if (!carve_pcall(launch_pragma_instance, t->next)) prog->errors++;
  }
  for (Template *t = template_kernels; t; t = t->next_kernel)
    if (!t->ninstances)
      warn_tok(t->fname, "template kernel '%s' has no instance: name its arguments where it is launched ('#pragma carve launch %s<...>')", t->name, t->name);
}

Obj *template_instance_at(Token **rest, Token *name) {
  VarScope *v = name->kind == TK_IDENT && tok_equal(name->next, "<") ? find_template(name) : NULL;
  if (!v || !v->tmpl) return NULL;
  TArg args[MAX_TPARAMS] = {{0}};
  *rest = template_args(name->next, v->tmpl, args);
  return instantiate(v->tmpl, args, name);
}

/* C++: a constexpr function without __device__ is callable from device code (nvcc's
 * --expt-relaxed-constexpr, and constant expressions): it is parsed as __host__ __device__ */
static bool is_constexpr_function(Token *tok) {
  bool ce = false;
  for (Token *t = tok; t->kind != TK_EOF; t = t->next) {
    if (tok_equal(t, "constexpr")) ce = true;
    if (tok_equal(t, "__global__") || tok_equal(t, "__device__") || tok_equal(t, "__host__") || tok_equal(t, "template")) return false;
    if (tok_equal(t, "(")) return ce;
    if (tok_equal(t, ";") || tok_equal(t, "=") || tok_equal(t, "{")) return false;
  }
  return false;
}

static void constexpr_call(void *ud) {
  TopCall *c = ud;
  VarAttr attr = {0};
  Token *tok = c->tok;
  Type *base = declspec(&tok, tok, &attr);
  Type *ty = declarator(&tok, tok, base);
  if (ty->kind != TY_FUNC) error_tok(c->tok, "expected a constexpr function");
  attr.device = attr.host = true;
  function(&c->tok, tok, ty, &attr);
}


Program *parse(Token *tok) {
  prog = arena_alloc(sizeof(Program));
  scope = arena_alloc(sizeof(Scope));
  memset(global_table, 0, sizeof global_table);
  n_failed_types = 0;
  fn_body_pending = false;
  funcs_tail = &prog->funcs;
  last_item = NULL;
  n_host_funcs = 0;
  nest_depth = stmt_depth = expr_level = 0;
  stack_base = (uintptr_t)__builtin_frame_address(0);
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
    if (prog->errors >= LIMIT_ERRORS) {
      diag_at(DIAG_ERROR, tok_loc(tok), "too many errors (%d): the rest of the file is not read (LIMIT_ERRORS, docs/limits.md)", LIMIT_ERRORS);
      prog->errors++;
      break;
    }
    if (tok->kind == TK_PRAGMA) {
      add_item(TOP_PRAGMA, NULL, NULL, NULL, tok);
      tok = tok->next;
      continue;
    }
    if (tok_equal(tok, ";")) { tok = tok->next; continue; }
    if (tok_equal(tok, "extern") && tok->next->kind == TK_STR && tok_equal(tok->next->next, "{")) {
      extern_c_depth++;
      if (nopen < 64) open_kind[nopen++] = 'e';
      tok = tok->next->next->next;
      continue;
    }
    if ((tok_equal(tok, "namespace") || tok_equal(tok, "using")) && nopen < 64) {
      NsCall nc = {tok, false, cur_ns};
      if (!carve_pcall(namespace_call, &nc)) {
        prog->errors++;
        cur_ns = nc.saved;
        tok = skip_declaration(tok);
        continue;
      }
      if (nc.opened) { open_kind[nopen] = 'n'; open_ns[nopen++] = nc.saved; }
      tok = nc.tok;
      continue;
    }
    if (tok_equal(tok, "}") && nopen && open_kind[nopen - 1] == 'n') { cur_ns = open_ns[--nopen]; tok = tok->next; continue; }
    if (tok_equal(tok, "}") && extern_c_depth) { extern_c_depth--; if (nopen) nopen--; tok = tok->next; continue; }
    if (tok_equal(tok, "}")) {
      diag_at(DIAG_ERROR, tok_loc(tok), "extraneous closing brace ('}')");
      prog->errors++;
      tok = tok->next;
      continue;
    }
    if (is_constexpr_function(tok)) {
      TopCall cc = {tok, false};
      if (carve_pcall(constexpr_call, &cc)) tok = cc.tok;
      else { prog->errors++; tok = skip_declaration(tok); }
      continue;
    }
    bool has_device;
    volatile DeclClass dc = classify(tok, &has_device);
    Token *volatile start = tok;
    if (tok_equal(tok, "template")) {
      TmplCall tc = {tok};
      if (carve_pcall(template_toplevel, &tc)) tok = tc.tok;
      else { prog->errors++; tok = skip_declaration(tok); prog->skipped_kernels += has_device; }
      continue;
    }
    if (dc == DECL_TEMPLATE || dc == DECL_NAMESPACE) {
      if (has_device) {
        diag_at(DIAG_ERROR, tok_loc(tok), "unsupported C++: %s (the device code inside is skipped; the file's other kernels still load)",
                dc == DECL_TEMPLATE ? "templates" : "namespaces");
        prog->errors++;
        prog->skipped_kernels++;
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
    Scope *scope_saved = scope;
    TopCall call = {tok, dc == DECL_CONST};
    if (carve_pcall(toplevel_call, &call)) {
      tok = call.tok;
    } else {
      scope = scope_saved;
      cur_fn = NULL;
      block_depth = 0;
      nest_depth = stmt_depth = expr_level = 0;
      /* an extern declaration is the program's own (C++ allows `extern const T x;`): quiet */
      if (host_var && !host_var_unsupported(diag_last_msg) && !unknown_type_first(start) && !tok_equal(start, "extern")) {
        diag_quiet = quiet_saved;
        diag_errors = errs;
        char msg[sizeof diag_last_msg];
        snprintf(msg, sizeof msg, "%s", diag_last_msg);
        diag_at(DIAG_ERROR, diag_last_loc, "%s", msg);
        prog->errors++;
      } else if (dc == DECL_DEVICE) {
        prog->errors++;
        record_device_failure(start);
        for (Token *t = start; t->kind != TK_EOF && !tok_equal(t, "{") && !tok_equal(t, ";"); t = t->next)
          if (tok_equal(t, "__global__")) { prog->skipped_kernels++; break; }
      } else {
        diag_errors = errs;   /* host-side type or constant that is not C: not carve's business */
        if (dc == DECL_TYPE) record_failed_type(start);
        if (dc == DECL_HOST) record_host_func(start);   /* reported if the host program is run */
      }
      tok = host_var ? skip_host_var(start) : skip_declaration(start);
      if (tok == start) tok = tok->next;
    }
    diag_quiet = quiet_saved;
  }
  instantiate_launches();
  stack_base = 0;
  vla_reset();
  Program *p = prog;
  program_finish(p);
  p->parse_state = parse_state_save();
  /* no parser state outlives the parse: the file scope lives on in the Program */
  memset(global_table, 0, sizeof global_table);
  scope = NULL;
  prog = NULL;
  cur_fn = NULL;
  cur_switch = NULL;
  last_item = NULL;
  funcs_tail = NULL;
  free(failed_types); failed_types = NULL; n_failed_types = 0;
  cur_ns = NULL;
  instance_depth = 0;
  template_kernels = NULL;
  free(using_ns); using_ns = NULL; n_using = 0;
  free(ns_aliases); ns_aliases = NULL; n_ns_aliases = 0;
  free(host_funcs); host_funcs = NULL; n_host_funcs = 0;
  return p;
}

typedef struct ParseState { VarScope *table[GLOBAL_BUCKETS]; Scope *scope; } ParseState;

void *parse_state_save(void) {
  ParseState *s = arena_alloc(sizeof(ParseState));
  memcpy(s->table, global_table, sizeof global_table);
  s->scope = scope;
  return s;
}

void parse_state_restore(const void *saved) {
  const ParseState *s = saved;
  if (s) { memcpy(global_table, s->table, sizeof global_table); scope = s->scope; }
  else { memset(global_table, 0, sizeof global_table); scope = NULL; }
}

/* the functions a kernel reaches through calls */
typedef struct { Obj **seen; int n; } Callees;
static bool collect_calls(Node *n, void *ctx) {
  Callees *c = ctx;
  if (n->kind != ND_CALL || !n->fn) return true;
  for (int i = 0; i < c->n; i++) if (c->seen[i] == n->fn) return true;
  c->seen = xrealloc(c->seen, sizeof(Obj *) * (size_t)(c->n + 1));
  c->seen[c->n++] = n->fn;
  if (n->fn->body) walk(n->fn->body, collect_calls, NULL, c);
  return true;
}

int kernel_static_shared(Obj *k) {
  Callees c = {0};
  if (k->body) walk(k->body, collect_calls, NULL, &c);
  int total = k->shared_size;
  for (int i = 0; i < c.n; i++) if (c.seen[i] != k) total += c.seen[i]->shared_size;
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
typedef struct { Program *p; const char *name; Obj *fn; } LateInstance;
static void late_instance_call(void *ud) {
  LateInstance *li = ud;
  Token *tok = pp_expand("<command line>", li->name);
  merge_qualified(tok);
  Token *rest = tok;
  li->fn = template_instance_at(&rest, tok);
  if (li->fn && rest->kind != TK_EOF) error_tok(rest, "unexpected '%.*s' after the kernel's template arguments", rest->len, rest->loc);
}

static Obj *late_instance(Program *p, const char *name) {
  /* not while p is being loaded (its launch specifications are checked with find_kernel) */
  if (!strchr(name, '<') || !p->parse_state || !p->arena || prog) return NULL;
  ProgramScope s = program_enter(p);
  prog = p;
  scope = ((ParseState *)p->parse_state)->scope;
  funcs_tail = &p->funcs;
  while (*funcs_tail) funcs_tail = &(*funcs_tail)->next;
  for (last_item = p->items; last_item && last_item->next; last_item = last_item->next) {}
  LateInstance li = {p, name, NULL};
  stack_base = (uintptr_t)__builtin_frame_address(0);
  bool ok = carve_pcall(late_instance_call, &li);
  stack_base = 0;
  prog = NULL; scope = NULL; last_item = NULL; funcs_tail = NULL; cur_fn = NULL;
  instance_depth = 0;
  if (ok && li.fn && li.fn->body) program_finish(p);
  program_leave(s);
  return ok && li.fn && li.fn->is_kernel && li.fn->body ? li.fn : NULL;
}

Obj *find_kernel(Program *p, const char *name) {
  Obj *found = NULL, *by_suffix = NULL;
  int n = 0, nsuffix = 0;
  for (Obj *f = p->funcs; f; f = f->next) {
    if (!f->is_kernel || !f->is_definition) continue;
    if (name && !strcmp(f->name, name)) return f;
    if (name && names_kernel(f->name, name)) { by_suffix = f; nsuffix++; }
    found = f;
    n++;
  }
  if (name) return nsuffix == 1 ? by_suffix : late_instance(p, name);
  return n == 1 ? found : NULL;
}
