/* parse_template.c: C++ function and class templates, constexpr functions and the device
 * library (split from parse.c; the parser's private interface is parse_int.h) */
#include "parse_int.h"
#include <sys/resource.h>

static Token *class_template_decl(Template *t);
static Token *class_specialization(Token *head, Token *kw);
static void bind_params(Template *t, TArg *args);

/* ---------------- C++ templates (docs/cxx.md) ----------------
 * A function template is kept as its tokens. Each use with new arguments (a call in device
 * code, with arguments written or deduced; `#pragma carve launch k<256, float>`; an explicit
 * instantiation `template __global__ void k<256, float>(...);`) parses those tokens again in a
 * scope where each type parameter names the argument type and each value parameter is its
 * value: the instance is an ordinary function named "k<256, float>", printed back as an
 * explicit specialization after the template's declaration. */

/* Each nested template instance parses a whole function on the C stack (2 to 4 KB a level at
 * -O2, several times that under ASan), so the depth is also bounded by the stack: an instance
 * is refused with a diagnostic once half the process's stack is used, leaving the other half
 * for parsing the function itself (whose nesting limits were measured to fit in it). */
static size_t stack_limit(void) {
  struct rlimit rl;
  if (getrlimit(RLIMIT_STACK, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY &&
      rl.rlim_cur < ((rlim_t)1 << 30))
    return (size_t)rl.rlim_cur;
  return (size_t)8 << 20;
}
static bool stack_half_used(void) {
  uintptr_t here = (uintptr_t)__builtin_frame_address(0);
  return ps.stack_base && here < ps.stack_base && ps.stack_base - here > stack_limit() / 2;
}

/* '>' closing a template argument list; a '>>' is split in two */
Token *skip_angle(Token *tok) {
  if (tok_equal(tok, ">>")) {
    Token *second = arena_alloc(sizeof(Token));
    *second = *tok;
    second->loc++;
    second->len = 1;
    second->col++;
    second->origin = NULL;
    second->has_space = false;
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
      Node *e = binary_level(&tok, tok, 7); /* no '<' or '>' at the top: C++'s rule */
      add_type(e);
      if (!eval_const(e, &args[i].val))
        error_tok(e->tok, "template argument for '%s' is not an integer constant",
                  t->params[i].name);
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
    if (depth == 0 && !tok_equal(tok, ")") && (n == 0 || tok_equal(tok->prev, ",")))
      starts[n++] = tok;
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
    for (Token *p = starts[i]; p->kind != TK_EOF && !tok_equal(p, ",") && !tok_equal(p, ")");
         p = p->next) {
      int k = 0;
      while (k < t->nparams && !(t->params[k].is_type && tok_equal(p, t->params[k].name))) k++;
      if (k == t->nparams || args[k].set) continue;
      Type *ty = a->ty;
      for (Token *q = p->next;
           tok_equal(q, "*") || tok_equal(q, "const") || tok_equal(q, "__restrict__"); q = q->next)
        if (tok_equal(q, "*")) {
          if (!is_pointer_like(ty)) goto next_param;
          ty = ty->base;
        }
      if (ty->kind == TY_ARRAY) ty = pointer_to(ty->base);
      args[k].ty = unqual(ty);
      args[k].set = true;
      break;
    }
  next_param:;
  }
}

Token *tnum_token(Token *at, int64_t v) {
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
  Scope *scope;
  Obj *cur_fn;
  int loop_depth, switch_depth, block_depth, nest_depth, stmt_depth, expr_level;
  bool fn_body_pending;
  Node *cur_switch;
  char *cur_ns;
  int nbinds;
} ParserState;
static ParserState save_parser(void) {
  return (ParserState){ps.scope,           ps.cur_fn,     ps.loop_depth, ps.switch_depth,
                       ps.block_depth,     ps.nest_depth, ps.stmt_depth, ps.expr_level,
                       ps.fn_body_pending, ps.cur_switch, ps.cur_ns,     ps.n_const_binds};
}
static void restore_parser(ParserState s) {
  ps.scope = s.scope;
  ps.cur_fn = s.cur_fn;
  ps.loop_depth = s.loop_depth;
  ps.switch_depth = s.switch_depth;
  ps.block_depth = s.block_depth;
  ps.nest_depth = s.nest_depth;
  ps.stmt_depth = s.stmt_depth;
  ps.expr_level = s.expr_level;
  ps.fn_body_pending = s.fn_body_pending;
  ps.cur_switch = s.cur_switch;
  ps.cur_ns = s.cur_ns;
  ps.n_const_binds = s.nbinds;
}

/* a template is instantiated in a fresh scope below the file's, in its own namespace and usings,
 * outside any function, loop or switch (function and class instances alike) */
static void enter_template_scope(Template *t) {
  Scope *file = ps.scope;
  while (file->next) file = file->next;
  ps.scope = arena_alloc(sizeof(Scope));
  ps.scope->next = file;
  ps.cur_fn = NULL;
  ps.cur_switch = NULL;
  ps.fn_body_pending = false;
  ps.loop_depth = ps.switch_depth = ps.block_depth = ps.nest_depth = ps.stmt_depth = ps.expr_level =
    0;
  ps.cur_ns = t->ns;
  ps.using_ns = t->usings;
  ps.n_using = t->nusing;
  ps.ns_aliases = t->aliases;
  ps.n_ns_aliases = t->naliases;
}

typedef struct {
  Template *t;
  TArg *args;
  char *local;
  Obj *fn;
} InstCall;
static void instance_body(void *ud) {
  InstCall *c = ud;
  Template *t = c->t;
  enter_template_scope(t);
  bind_params(t, c->args);
  VarAttr attr = {0};
  Token *tok = t->decl;
  Type *base = declspec(&tok, tok, &attr);
  Type *ty = declarator(&tok, tok, base);
  if (ty->kind != TY_FUNC || !ty->name)
    error_tok(t->fname, "unsupported C++: this template (carve instantiates function templates)");
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
  if (c->fn) {
    c->fn->tmpl_head = t->head;
    t->ninstances++;
  }
}

/* the instance of t for args (defaults filled in), parsed once */
/* the arguments not written or deduced: the parameters' defaults */
static void fill_template_defaults(Template *t, TArg *args, Token *at) {
  for (int i = 0; i < t->nparams; i++) {
    if (args[i].set) continue;
    if (!t->params[i].deflt)
      error_tok(at, "cannot deduce the template argument '%s' of '%s': write %s<...>",
                t->params[i].name, t->name, t->local);
    Token *d = t->params[i].deflt;
    if (t->params[i].is_type) args[i].ty = typename_(&d, d);
    else args[i].val = const_expr(&d, d);
    args[i].set = true;
  }
}

static Obj *instantiate(Template *t, TArg *args, Token *at) {
  fill_template_defaults(t, args, at);
  for (int i = 0; i < t->nparams; i++)
    if (t->params[i].is_type && (args[i].ty->kind == TY_VOID || has_auto(args[i].ty)))
      error_tok(at, "template argument '%s' of '%s' cannot be '%s'", t->params[i].name, t->name,
                type_name(args[i].ty));
  InstCall c = {t, args, instance_name(t, args, true), NULL};
  char *full = instance_name(t, args, false);
  VarScope *have = find_global_n(full, (int)strlen(full));
  if (have && have->var) return have->var;
  if (ps.instance_depth >= MAX_INSTANCE_DEPTH)
    error_tok(
      at,
      "template instances nested too deeply (%d, as clang's and nvcc's -ftemplate-depth; docs/limits.md) instantiating '%s'",
      MAX_INSTANCE_DEPTH, full);
  if (stack_half_used())
    error_tok(
      at,
      "template instances nested too deeply for carve's stack (%d levels; half of the %zu MiB stack used) instantiating '%s'",
      ps.instance_depth, stack_limit() >> 20, full);
  ParserState saved = save_parser();
  char **su = ps.using_ns;
  int sn = ps.n_using;
  NsAlias *sa = ps.ns_aliases;
  int sna = ps.n_ns_aliases;
  ps.instance_depth++;
  bool ok = carve_pcall(instance_body, &c);
  ps.instance_depth--;
  restore_parser(saved);
  ps.using_ns = su;
  ps.n_using = sn;
  ps.ns_aliases = sa;
  ps.n_ns_aliases = sna;
  if (!ok || !c.fn) {
    note_tok(at, "in the instance '%s' of the template, required here", full);
    carve_throw();
  }
  return c.fn;
}

/* name<ARGS>(...) or name(...) where name is a function template */
Node *template_call(Token **rest, Token *tok, Template *t) {
  Token *name = tok;
  if (t->is_class) { /* Name<args>(): a temporary, a hidden local printed as written */
    Type *ct = class_template_type(&tok, tok);
    if (!ps.cur_fn)
      error_tok(name, "unsupported C++: a temporary of class type outside a function");
    tok = skip(skip(tok, "("), ")");
    Obj *o = hidden_local("__carve_tmp", ct, name);
    o->class_temp = true;
    *rest = tok;
    return new_var(o, name);
  }
  TArg args[MAX_TPARAMS] = {{0}};
  tok = tok->next;
  if (tok_equal(tok, "<")) tok = template_args(tok, t, args);
  if (tok_equal(tok, "<<<")) /* K<ARGS><<<grid, block>>>(args): a launch of the instance */
    return launch_config(rest, name, tok, NULL, t, args);
  if (!tok_equal(tok, "("))
    error_tok(tok, "expected '(' after the template '%s' (function templates are called)", t->name);
  Node *call = new_node(ND_CALL, name);
  call->args = func_args(rest, tok->next, call);
  deduce_args(t, call->args, args);
  Obj *fn = instantiate(t, args, name);
  return user_call(name, call, fn);
}

/* the instance of t a launch names: the arguments given (targs, NULL for none), the rest deduced
 * from the launch's arguments */
Obj *template_launch_instance(Template *t, TArg *targs, Node *call_args, Token *at) {
  TArg args[MAX_TPARAMS] = {{0}};
  if (targs) memcpy(args, targs, sizeof args);
  deduce_args(t, call_args, args);
  return instantiate(t, args, at);
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
      if (!is_integer(p->vty))
        error_tok(
          tok,
          "unsupported C++: a template parameter of type '%s' (integer and type parameters are)",
          type_name(p->vty));
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
  if (tok_equal(tok, "union")) error_tok(tok, "unsupported C++: union templates");
  if (tok_equal(tok, "struct") || tok_equal(tok, "class")) return class_template_decl(t);
  Token *prev = NULL;
  for (;
       tok->kind != TK_EOF && !tok_equal(tok, "(") && !tok_equal(tok, ";") && !tok_equal(tok, "{");
       prev = tok, tok = tok->next)
    if (tok_equal(tok, "__global__")) t->is_kernel = true;
  if (!tok_equal(tok, "(") || !prev || prev->kind != TK_IDENT)
    error_tok(t->decl, "unsupported C++: this template (carve instantiates function templates)");
  t->fname = prev;
  t->ns = ps.cur_ns;
  t->nusing = ps.n_using;
  t->usings = arena_alloc(sizeof(char *) * (size_t)(ps.n_using + 1));
  if (ps.n_using) memcpy(t->usings, ps.using_ns, sizeof(char *) * (size_t)ps.n_using);
  t->naliases = ps.n_ns_aliases;
  t->aliases = arena_alloc(sizeof(NsAlias) * (size_t)(ps.n_ns_aliases + 1));
  if (ps.n_ns_aliases) memcpy(t->aliases, ps.ns_aliases, sizeof(NsAlias) * (size_t)ps.n_ns_aliases);
  t->local = tok_text(prev);
  t->name = ns_qualify(t->local);
  Token *end = skip_declaration(t->decl);
  Token *body = t->decl;
  while (body != end && !tok_equal(body, "{") && !tok_equal(body, ";")) body = body->next;
  add_item(TOP_RAW, NULL, NULL, NULL, t->head);
  ps.last_item->end = body;
  VarScope *prior = find_global_n(t->name, (int)strlen(t->name));
  if (prior && prior->tmpl) { /* a declaration before the definition: the definition wins */
    if (tok_equal(body, "{")) *prior->tmpl = *t;
  } else {
    push_global(t->name)->tmpl = t;
    if (t->is_kernel) {
      t->next_kernel = ps.template_kernels;
      ps.template_kernels = t;
    }
  }
  return end;
}

/* ---- class templates (docs/cxx.md) ----
 * template <class T> struct Name { member functions }; is kept as its tokens and printed as
 * written (a TOP_RAW item), as are its explicit specializations `template <> struct Name<int>
 * {...}`. `Name<args>` used as a type in device code makes the instance: an empty struct whose
 * type name is "Name<args>", whose member functions are functions "Name<args>::f" taking the
 * object's address first, parsed from the explicit specialization for those arguments when there
 * is one, else from the template with its parameters bound (as a function template's instance).
 * x.f(a) calls one and prints as written; a conversion operator `operator T *()` applies where an
 * initializer or assignment converts to T *. Data members, inheritance and partial
 * specializations are located errors. */
/* the instance's scope: each type parameter names its argument, each value parameter is its value */
static void bind_params(Template *t, TArg *args) {
  for (int i = 0; i < t->nparams; i++) {
    VarScope *v = arena_alloc(sizeof(VarScope));
    v->name = t->params[i].name;
    v->next = ps.scope->vars;
    ps.scope->vars = v;
    if (t->params[i].is_type) v->type_def = args[i].ty;
    else {
      v->enum_ty = t->params[i].vty;
      v->enum_val = args[i].val;
      v->tparam = true;
    }
  }
}

/* the file-scope item of a class template or specialization: its tokens, printed as written */
static Token *class_raw_item(Token *head, Token *decl) {
  Token *end = skip_declaration(decl);
  add_item(TOP_RAW, NULL, NULL, NULL, head);
  ps.last_item->end = end;
  return end;
}

static Token *class_template_decl(Template *t) {
  Token *name = t->decl->next;
  if (name->kind != TK_IDENT) error_tok(name, "expected the class template's name");
  if (tok_equal(name->next, "<")) error_tok(name->next, "unsupported C++: partial specialization");
  t->is_class = true;
  t->fname = name;
  t->ns = ps.cur_ns;
  t->nusing = ps.n_using;
  t->usings = arena_alloc(sizeof(char *) * (size_t)(ps.n_using + 1));
  if (ps.n_using) memcpy(t->usings, ps.using_ns, sizeof(char *) * (size_t)ps.n_using);
  t->naliases = ps.n_ns_aliases;
  t->aliases = arena_alloc(sizeof(NsAlias) * (size_t)(ps.n_ns_aliases + 1));
  if (ps.n_ns_aliases) memcpy(t->aliases, ps.ns_aliases, sizeof(NsAlias) * (size_t)ps.n_ns_aliases);
  t->local = tok_text(name);
  t->name = ns_qualify(t->local);
  Token *end = class_raw_item(t->head, t->decl);
  VarScope *prior = find_global_n(t->name, (int)strlen(t->name));
  if (prior && prior->tmpl &&
      prior->tmpl->is_class) { /* a declaration before the definition: the definition wins */
    if (tok_equal(name->next, "{")) {
      ClassSpec *specs = prior->tmpl->specs;
      *prior->tmpl = *t;
      prior->tmpl->specs = specs;
    }
  } else {
    push_global(t->name)->tmpl = t;
  }
  return end;
}

/* template <> struct Name<args> { ... };  (an explicit specialization, chosen for those args) */
static Token *class_specialization(Token *head, Token *kw) {
  Token *name = kw->next;
  VarScope *v = name->kind == TK_IDENT && tok_equal(name->next, "<") ? find_var(name) : NULL;
  if (!v || !v->tmpl || !v->tmpl->is_class)
    error_tok(name, "expected an explicit specialization of a class template");
  TArg args[MAX_TPARAMS] = {{0}};
  template_args(name->next, v->tmpl, args);
  for (int i = 0; i < v->tmpl->nparams; i++)
    if (!args[i].set)
      error_tok(name, "an explicit specialization of '%s' names every template argument",
                v->tmpl->name);
  ClassSpec *s = arena_alloc(sizeof(ClassSpec));
  s->name = instance_name(v->tmpl, args, false);
  s->decl = kw;
  s->next = v->tmpl->specs;
  v->tmpl->specs = s;
  return class_raw_item(head, kw);
}

bool is_class_template(Token *tok) {
  if (tok->kind != TK_IDENT || !tok_equal(tok->next, "<")) return false;
  VarScope *v = find_var(tok);
  return v && v->tmpl && v->tmpl->is_class;
}

typedef struct {
  Template *t;
  TArg *args;
  Type *ty;
  Token *decl;
  bool spec;
} ClassCall;

/* one member function of a class instance: `[quals] type declarator [const] body` or
 * `[quals] operator type () [const] body`, parsed as a function "Name<args>::f" whose first
 * parameter is the object's address */
static Token *member_function(Token *tok, Type *cls) {
  VarAttr attr = {0};
  Type *ty;
  char *member;
  bool conversion = false;
  for (Token *t = tok;
       t->kind != TK_EOF && !tok_equal(t, "(") && !tok_equal(t, ";") && !tok_equal(t, "{");
       t = t->next)
    if (tok_equal(t, "operator")) conversion = true;
  if (conversion) {
    for (;; tok = tok->next) {
      if (tok_equal(tok, "__device__")) attr.device = true;
      else if (tok_equal(tok, "__host__")) attr.host = true;
      else if (tok_equal(tok, "__forceinline__")) attr.forceinline = true;
      else if (!tok_equal(tok, "inline") && !tok_equal(tok, "__inline__") &&
               !tok_equal(tok, "explicit"))
        break;
    }
    if (!tok_equal(tok, "operator")) error_tok(tok, "unsupported C++: this member");
    Token *at = tok;
    if (!is_typename(tok->next))
      error_tok(at, "unsupported C++: operator overloading (conversion operators are)");
    Type *to = declspec(&tok, tok->next, NULL);
    to = pointers(&tok, tok, to);
    tok = skip(skip(tok, "("), ")");
    ty = func_type(to);
    ty->name = at;
    member = fmt("operator %s", type_name(to));
  } else {
    Type *base = declspec(&tok, tok, &attr);
    ty = declarator(&tok, tok, base);
    if (ty->kind != TY_FUNC || !ty->name)
      error_tok(ty->name ? ty->name : tok,
                "unsupported C++: data members of a class template (member functions are)");
    member = tok_text(ty->name);
  }
  if (tok_equal(tok, "const"))
    tok = tok->next; /* a const member function: `this` points to const */
  Token *this_tok = arena_alloc(sizeof(Token));
  *this_tok = *ty->name;
  this_tok->loc = "this";
  this_tok->len = 4;
  this_tok->origin = ty->name;
  this_tok->macro = NULL;
  Type *self = copy_type(pointer_to(cls));
  self->name = this_tok;
  self->next = ty->params;
  ty->params = self;
  Token *nm = arena_alloc(sizeof(Token));
  *nm = *ty->name;
  nm->loc = fmt("%s::%s", cls->typedef_name, member);
  nm->len = (int)strlen(nm->loc);
  nm->origin = ty->name;
  nm->macro = NULL;
  ty->name = nm;
  Type *saved = ps.cur_class;
  ps.cur_class = cls;
  Token *end;
  function(&end, tok, ty, &attr);
  ps.cur_class = saved;
  Obj *fn = find_func(ns_qualify(tok_text(nm)));
  if (fn) fn->member = member;
  return end;
}

static void class_body(void *ud) {
  ClassCall *c = ud;
  Template *t = c->t;
  enter_template_scope(t);
  if (!c->spec) bind_params(t, c->args);
  Token *tok = c->decl->next->next; /* past `struct Name` */
  if (tok_equal(tok, "<")) {        /* a specialization's arguments */
    int depth = 0;
    for (; tok->kind != TK_EOF; tok = tok->next) {
      if (tok_equal(tok, "<")) depth++;
      else if (tok_equal(tok, ">") && --depth == 0) break;
      else if (tok_equal(tok, ">>") && (depth -= 2) <= 0) break;
    }
    tok = tok->next;
  }
  if (tok_equal(tok, ":")) error_tok(tok, "unsupported C++: inheritance");
  if (tok_equal(tok, ";"))
    error_tok(c->decl, "'%s' is declared but never defined", c->ty->typedef_name);
  tok = skip(tok, "{");
  while (!tok_equal(tok, "}")) {
    if (tok->kind == TK_EOF) error_tok(tok, "expected '}' at the end of the class");
    if ((tok_equal(tok, "public") || tok_equal(tok, "private") || tok_equal(tok, "protected")) &&
        tok_equal(tok->next, ":")) {
      tok = tok->next->next;
      continue;
    }
    if (tok_equal(tok, ";")) {
      tok = tok->next;
      continue;
    }
    tok = member_function(tok, c->ty);
  }
}

/* Name<args> as a type: the instance, made on first use */
Type *class_template_type(Token **rest, Token *tok) {
  Token *at = tok;
  Template *t = find_var(tok)->tmpl;
  TArg args[MAX_TPARAMS] = {{0}};
  *rest = template_args(tok->next, t, args);
  fill_template_defaults(t, args, at);
  char *full = instance_name(t, args, false);
  VarScope *have = find_global_n(full, (int)strlen(full));
  if (have && have->type_def) return have->type_def;
  if (ps.instance_depth >= MAX_INSTANCE_DEPTH || stack_half_used())
    error_tok(at, "template instances nested too deeply instantiating '%s' (docs/limits.md)", full);
  Type *ty = struct_type();
  ty->size = 1; /* C++: an empty class takes one byte */
  ty->typedef_name = full;
  VarScope *vs = push_global(full);
  vs->type_def = ty;
  ClassCall c = {t, args, ty, t->decl, false};
  for (ClassSpec *s = t->specs; s; s = s->next)
    if (!strcmp(s->name, full)) {
      c.decl = s->decl;
      c.spec = true;
    }
  ParserState saved = save_parser();
  char **su = ps.using_ns;
  int sn = ps.n_using;
  NsAlias *sa = ps.ns_aliases;
  int sna = ps.n_ns_aliases;
  ps.instance_depth++;
  bool ok = carve_pcall(class_body, &c);
  ps.instance_depth--;
  restore_parser(saved);
  ps.using_ns = su;
  ps.n_using = sn;
  ps.ns_aliases = sa;
  ps.n_ns_aliases = sna;
  if (!ok) {
    vs->type_def = NULL;
    note_tok(at, "in the instance '%s' of the class template, required here", full);
    carve_throw();
  }
  return ty;
}

/* e (a class instance's value) converted to `to` by the class's conversion operator: a call of
 * "Name<args>::operator T" on e's address, the one returning `to` exactly, else the only one;
 * anything else unchanged */
Node *class_convert(Node *e, Type *to) {
  add_type(e);
  Type *ct = e->ty;
  if (ct->kind != TY_STRUCT || !ct->typedef_name || !to || to->kind == TY_STRUCT) return e;
  Obj *exact = NULL, *any = NULL;
  int n = 0;
  size_t len = strlen(ct->typedef_name);
  for (Obj *f = ps.prog->funcs; f; f = f->next) {
    if (!f->member || strncmp(f->member, "operator ", 9) ||
        strncmp(f->name, ct->typedef_name, len) || strncmp(f->name + len, "::", 2))
      continue;
    Type *r = f->ty->return_ty;
    if (same_type(unqual(r), unqual(to)) &&
        (r->kind != TY_PTR || (r->base->qual & Q_CONST) == (to->base->qual & Q_CONST)))
      exact = f;
    any = f;
    n++;
  }
  Obj *fn = exact ? exact : n == 1 ? any : NULL;
  if (!fn) {
    if (n)
      error_tok(e->tok, "no conversion operator of '%s' returns '%s'", ct->typedef_name,
                type_name(to));
    return e;
  }
  Node *call = new_node(ND_CALL, e->tok);
  Node *self = new_unary(ND_ADDR, e, e->tok);
  self->implicit = true;
  add_type(self);
  call->args = self;
  call->nargs = 1;
  call->implicit = false;
  return user_call(e->tok, call, fn);
}

/* ---- the device library: CUDA intrinsics carve writes in CUDA C ----
 * A function here is parsed from its text on the first call in a program, as a device function
 * that is never printed (no top-level item: the print keeps the call as written, which nvcc
 * compiles to the intrinsic). Its cost in analyze and estimate is that of the text, not of the
 * one instruction the GPU runs. */
static const struct {
  const char *name, *internal, *text;
} device_lib[] = {
  /* sm_80's __reduce_add_sync (int; the unsigned overload is the same sum, its type restored by
   * the caller): every lane of mask reads every other's value, in lane order */
  {"__reduce_add_sync", "__reduce_add_sync",
   "__device__ int __reduce_add_sync(unsigned int mask, int value) {\n"
   "  int sum = 0;\n"
   "  for (int lane = 0; lane < 32; lane++)\n"
   "    if (mask >> lane & 1u) sum += __shfl_sync(mask, value, lane);\n"
   "  return sum;\n"
   "}\n"},
  /* sm_70's __match_any_sync (32-bit values): the lanes of mask whose value equals this lane's */
  {"__match_any_sync", "__match_any_sync",
   "__device__ unsigned int __match_any_sync(unsigned int mask, int value) {\n"
   "  unsigned int same = 0;\n"
   "  for (int lane = 0; lane < 32; lane++)\n"
   "    if ((mask >> lane & 1u) && __shfl_sync(mask, value, lane) == value) same |= 1u << lane;\n"
   "  return same;\n"
   "}\n"},
  /* cooperative groups' coalesced groups (parse_cg.c): a group is the mask of its lanes */
  {"__carve_cg_lane_rank", "__carve_cg_lane_rank", /* the thread's rank among the lanes of mask */
   "__device__ unsigned int __carve_cg_lane_rank(unsigned int mask) {\n"
   "  unsigned int lane = (threadIdx.x + threadIdx.y * blockDim.x +\n"
   "                       threadIdx.z * blockDim.x * blockDim.y) % 32u;\n"
   "  return __popc(mask & ((1u << lane) - 1u));\n"
   "}\n"},
  {"__carve_cg_rank_lane", "__carve_cg_rank_lane", /* the lane of rank `rank` in mask (32: none) */
   "__device__ unsigned int __carve_cg_rank_lane(unsigned int mask, unsigned int rank) {\n"
   "  for (unsigned int lane = 0; lane < 32u; lane++)\n"
   "    if (mask >> lane & 1u) {\n"
   "      if (rank == 0u) return lane;\n"
   "      rank--;\n"
   "    }\n"
   "  return 32u;\n"
   "}\n"},
  {"__carve_cg_tile_mask", "__carve_cg_tile_mask", /* the lanes of the thread's tile of n */
   "__device__ unsigned int __carve_cg_tile_mask(unsigned int n) {\n"
   "  unsigned int lane = (threadIdx.x + threadIdx.y * blockDim.x +\n"
   "                       threadIdx.z * blockDim.x * blockDim.y) % 32u;\n"
   "  return n == 32u ? 0xffffffffu : ((1u << n) - 1u) << (lane & ~(n - 1u));\n"
   "}\n"},
  {"__carve_cg_binary_partition", "__carve_cg_binary_partition",
   "__device__ unsigned int __carve_cg_binary_partition(unsigned int mask, bool pred) {\n"
   "  unsigned int set = __ballot_sync(mask, pred);\n"
   "  return pred ? set : mask & ~set;\n"
   "}\n"},
  /* memcpy and memset in device code (CUDA's device runtime has both; the host's are the host
   * runtime's): byte by byte */
  {"memcpy", "__carve_device_memcpy",
   "__device__ void *__carve_device_memcpy(void *dst, const void *src, unsigned long n) {\n"
   "  unsigned char *d = (unsigned char *)dst;\n"
   "  const unsigned char *s = (const unsigned char *)src;\n"
   "  for (unsigned long i = 0; i < n; i++) d[i] = s[i];\n"
   "  return dst;\n"
   "}\n"},
  {"memset", "__carve_device_memset",
   "__device__ void *__carve_device_memset(void *dst, int c, unsigned long n) {\n"
   "  unsigned char *d = (unsigned char *)dst;\n"
   "  for (unsigned long i = 0; i < n; i++) d[i] = (unsigned char)c;\n"
   "  return dst;\n"
   "}\n"},
};

typedef struct {
  const char *text;
} LibCall;
static void device_lib_body(void *ud) {
  LibCall *c = ud;
  Token *tok = tokenize_string("<carve device library>", c->text);
  convert_pp_tokens(tok);
  Scope *file = ps.scope;
  while (file->next) file = file->next;
  ps.scope = file;
  ps.cur_fn = NULL;
  ps.cur_switch = NULL;
  ps.fn_body_pending = false;
  ps.loop_depth = ps.switch_depth = ps.block_depth = ps.nest_depth = ps.stmt_depth = ps.expr_level =
    0;
  ps.cur_ns = NULL;
  VarAttr attr = {0};
  Type *base = declspec(&tok, tok, &attr);
  Type *ty = declarator(&tok, tok, base);
  Token *end;
  function(&end, tok, ty, &attr);
}

/* the device library's function `name`, parsed on its first use; NULL if there is none */
Obj *device_lib_function(Token *name) {
  for (size_t i = 0; i < sizeof device_lib / sizeof *device_lib; i++) {
    if (!tok_equal(name, device_lib[i].name)) continue;
    Obj *fn = find_func(device_lib[i].internal);
    if (fn) return fn;
    LibCall c = {device_lib[i].text};
    ParserState saved = save_parser();
    Type *cls = ps.cur_class;
    ps.cur_class = NULL;
    ps.in_device_lib = true;
    bool ok = carve_pcall(device_lib_body, &c);
    ps.in_device_lib = false;
    ps.cur_class = cls;
    restore_parser(saved);
    if (!ok) carve_throw();
    fn = find_func(device_lib[i].internal);
    if (fn) fn->lib_name = device_lib[i].name;
    return fn;
  }
  return NULL;
}

/* ---- lambdas (docs/cxx.md) ----
 * auto f = [&a, &b](params) -> T { body };  in device code is a device function never printed on
 * its own, whose first parameters are references to the captured locals; f(args) calls it with
 * the captures first. The declaration prints as written and the call as written. Captures by
 * value ([x], [=]: C++ copies them where the lambda is declared), default captures, a lambda
 * without `-> T`, in host code or in a template instance are located errors. */
typedef struct {
  Type *ty;
  Token *body;
  Token *end;
} LambdaCall;
static void lambda_body(void *ud) {
  LambdaCall *c = ud;
  Scope *file = ps.scope;
  while (file->next) file = file->next;
  ps.scope = file;
  ps.cur_fn = NULL;
  ps.cur_switch = NULL;
  ps.fn_body_pending = false;
  ps.loop_depth = ps.switch_depth = ps.block_depth = ps.nest_depth = ps.stmt_depth = ps.expr_level =
    0;
  VarAttr attr = {0};
  attr.device = true;
  function(&c->end, c->body, c->ty, &attr);
}

Node *lambda_decl(Token **rest, Token *start, Token *name) {
  Token *open = name->next->next;
  if (!ps.cur_fn || in_host_fn()) error_tok(open, "unsupported C++: a lambda in host code");
  if (ps.instance_depth) error_tok(open, "unsupported C++: a lambda in a template instance");
  enum { MAX_CAPTURES = 16 };
  Obj *caps[MAX_CAPTURES];
  Token *capt[MAX_CAPTURES];
  int ncap = 0;
  Token *tok = open->next;
  while (!tok_equal(tok, "]")) {
    if (ncap) tok = skip(tok, ",");
    if (!tok_equal(tok, "&") || tok->next->kind != TK_IDENT)
      error_tok(
        tok, "unsupported C++: this capture (a lambda captures named locals by reference: [&x])");
    tok = tok->next;
    VarScope *v = find_var(tok);
    if (!v || !v->var || (v->var->sc != SC_LOCAL && v->var->sc != SC_PARAM))
      error_tok(tok, "'%.*s' is not a local variable of the function to capture", tok->len,
                tok->loc);
    if (ncap == MAX_CAPTURES) error_tok(tok, "more than %d captures", MAX_CAPTURES);
    capt[ncap] = tok;
    caps[ncap++] = v->var;
    tok = tok->next;
  }
  tok = skip(tok, "]");
  if (!tok_equal(tok, "(")) error_tok(tok, "unsupported C++: a lambda without a parameter list");
  Token *params = tok;
  Token *after = skip_balanced(params);
  while (tok_equal(after, "__device__") || tok_equal(after, "mutable")) after = after->next;
  if (!tok_equal(after, "->"))
    error_tok(after, "unsupported C++: a lambda without a trailing return type ('-> T')");
  Token *body;
  Type *ret = typename_(&body, after->next);
  if (!tok_equal(body, "{")) error_tok(body, "expected the lambda's body");
  Token *dummy;
  Type *fty = func_params(&dummy, params->next, ret);
  Type head = {0}, *cur = &head;
  for (int i = 0; i < ncap; i++) {
    Type *r = copy_type(pointer_to(caps[i]->ty));
    r->is_ref = true;
    r->name = capt[i];
    cur = cur->next = r;
  }
  cur->next = fty->params;
  fty->params = head.next;
  Token *nm = arena_alloc(sizeof(Token));
  *nm = *name;
  nm->loc = fmt("%s::lambda:%.*s:%d", ps.cur_fn->name, name->len, name->loc, ps.nlambdas++);
  nm->len = (int)strlen(nm->loc);
  nm->origin = name;
  nm->macro = NULL;
  fty->name = nm;
  LambdaCall c = {fty, body, NULL};
  ParserState saved = save_parser();
  bool was = ps.in_device_lib;
  ps.in_device_lib = true;
  bool ok = carve_pcall(lambda_body, &c);
  ps.in_device_lib = was;
  restore_parser(saved);
  if (!ok) carve_throw();
  Obj *fn = find_func(tok_text(nm));
  if (!fn) error_tok(name, "the lambda '%.*s' did not load", name->len, name->loc);
  fn->lib_name = tok_text(name);
  fn->ncaptures = ncap;
  fn->captures = arena_alloc(sizeof(Obj *) * (size_t)ncap + 1);
  memcpy(fn->captures, caps, sizeof(Obj *) * (size_t)ncap);
  push_scope(tok_text(name))->var = fn;
  *rest = skip(c.end, ";");
  Node *n = new_node(ND_NULL_STMT, start);
  n->end_tok = *rest;
  return n;
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
  if (tok_equal(tok, "struct") || tok_equal(tok, "class")) return class_specialization(head, tok);
  for (Token *t = tok; t->kind != TK_EOF && !tok_equal(t, "(") && !tok_equal(t, ";"); t = t->next) {
    VarScope *v = t->kind == TK_IDENT && tok_equal(t->next, "<") ? find_var(t) : NULL;
    if (!v || !v->tmpl) continue;
    TArg args[MAX_TPARAMS] = {{0}};
    Token *after = template_args(t->next, v->tmpl, args);
    for (int i = 0; i < v->tmpl->nparams; i++)
      if (!args[i].set)
        error_tok(t, "an explicit specialization of '%s' names every template argument",
                  v->tmpl->name);
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
    if (fn) {
      fn->tmpl_head = head;
      v->tmpl->ninstances++;
    }
    return end;
  }
  error_tok(head, "expected an explicit specialization of a function template");
}

void template_toplevel(void *ud) {
  TmplCall *c = ud;
  Token *t = c->tok;
  c->tok = !tok_equal(t->next, "<")        ? explicit_instantiation(t)
           : tok_equal(t->next->next, ">") ? explicit_specialization(t)
                                           : template_decl(t);
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

void instantiate_launches(void) {
  for (TopItem *it = ps.prog->items; it; it = it->next) {
    Token *t = it->kind == TOP_PRAGMA ? it->tok->pragma_toks : NULL;
    if (!t || !tok_equal(t, "launch") || t->next->kind != TK_IDENT ||
        !tok_equal(t->next->next, "<"))
      continue;
    if (!carve_pcall(launch_pragma_instance, t->next)) ps.prog->errors++;
  }
  for (Template *t = ps.template_kernels; t; t = t->next_kernel)
    if (!t->ninstances)
      warn_tok(
        t->fname,
        "template kernel '%s' has no instance: name its arguments where it is launched ('#pragma carve launch %s<...>')",
        t->name, t->name);
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
bool is_constexpr_function(Token *tok) {
  bool ce = false;
  for (Token *t = tok; t->kind != TK_EOF; t = t->next) {
    if (tok_equal(t, "constexpr")) ce = true;
    if (tok_equal(t, "__global__") || tok_equal(t, "__device__") || tok_equal(t, "__host__") ||
        tok_equal(t, "template"))
      return false;
    if (tok_equal(t, "(")) return ce;
    if (tok_equal(t, ";") || tok_equal(t, "=") || tok_equal(t, "{")) return false;
  }
  return false;
}

void constexpr_call(void *ud) {
  TopCall *c = ud;
  VarAttr attr = {0};
  Token *tok = c->tok;
  Type *base = declspec(&tok, tok, &attr);
  Type *ty = declarator(&tok, tok, base);
  if (ty->kind != TY_FUNC) error_tok(c->tok, "expected a constexpr function");
  attr.device = attr.host = true;
  function(&c->tok, tok, ty, &attr);
}
