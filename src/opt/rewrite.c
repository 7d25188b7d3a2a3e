/* rewrite: building and splicing AST for the passes. New nodes carry synthetic tokens whose
 * origin is a token of the code they replace, so a fault in rewritten code is reported at the
 * user's line, and the printer spells them as written here. Every expression built here is
 * typed by add_type, which inserts the implicit conversions C requires, as the parser does. */
#include "opt.h"
#include <stdlib.h>
#include <string.h>

Token *rw_tok(Token *anchor, TokenKind kind, const char *text) {
  Token *t = arena_alloc(sizeof(Token));
  t->kind = kind;
  t->loc = arena_strdup(text);
  t->len = (int)strlen(text);
  t->file = anchor ? anchor->file : NULL;
  t->line = anchor ? anchor->line : 0;
  t->col = anchor ? anchor->col : 0;
  t->origin = anchor;
  t->next = t->prev = NULL;
  return t;
}

Node *rw_num(Token *at, int64_t v) {
  Node *n = new_node(ND_NUM, rw_tok(at, TK_NUM, fmt("%lld", (long long)v)));
  n->ival = v;
  n->ty = ty_int;
  return n;
}

Node *rw_unum(Token *at, int64_t v) {
  Node *n = new_node(ND_NUM, rw_tok(at, TK_NUM, fmt("%lldu", (long long)v)));
  n->ival = v;
  n->ty = ty_uint;
  return n;
}

Node *rw_var(Token *at, Obj *v) {
  Node *n = new_node(ND_VAR, rw_tok(at, TK_IDENT, v->name));
  n->var = v;
  n->ty = v->ty;
  return n;
}

Node *rw_special(Token *at, SpecialReg r, int dim) {
  Node *n = new_node(ND_SPECIAL, at);
  n->sreg = r;
  n->dim = dim;
  n->ty = ty_uint;
  return n;
}

Node *rw_bin(NodeKind k, Node *l, Node *r) {
  Node *n = new_node(k, l->tok);
  n->lhs = l;
  n->rhs = r;
  add_type(n);
  return n;
}

Node *rw_unary(NodeKind k, Node *e) {
  Node *n = new_node(k, e->tok);
  n->lhs = e;
  add_type(n);
  return n;
}

Node *rw_index(Node *base, Node *index) { return rw_bin(ND_INDEX, base, index); }
Node *rw_assign(Node *l, Node *r) { return rw_bin(ND_ASSIGN, l, r); }

Node *rw_expr_stmt(Node *e) {
  Node *n = new_node(ND_EXPR_STMT, e->tok);
  n->lhs = e;
  return n;
}

Node *rw_block(Token *at, Node *stmts) {
  Node *n = new_node(ND_BLOCK, at);
  n->stmts = stmts;
  return n;
}

Node *rw_if(Node *cond, Node *then, Node *els) {
  Node *n = new_node(ND_IF, cond->tok);
  n->cond = cond;
  n->then = then;
  n->els = els;
  return n;
}

Node *rw_for(Node *init, Node *cond, Node *inc, Node *body) {
  Node *n = new_node(ND_FOR, cond ? cond->tok : body->tok);
  n->init = init;
  n->cond = cond;
  n->inc = inc;
  n->then = body;
  return n;
}

Node *rw_sync(Token *at) {
  Node *c = new_node(ND_CALL, rw_tok(at, TK_IDENT, "__syncthreads"));
  c->builtin = BI_SYNCTHREADS;
  c->ty = ty_void;
  return rw_expr_stmt(c);
}

Node *rw_break(Token *at) { return new_node(ND_BREAK, rw_tok(at, TK_KEYWORD, "break")); }

static bool name_taken(Program *p, Obj *fn, const char *name) {
  for (Obj *l = fn->locals; l; l = l->next_local)
    if (!strcmp(l->name, name)) return true;
  for (Obj *g = p->globals; g; g = g->next)
    if (!strcmp(g->name, name)) return true;
  for (Obj *f = p->funcs; f; f = f->next)
    if (!strcmp(f->name, name)) return true;
  return false;
}

/* shared variables are not in fn->locals: look at the declarations too */
typedef struct {
  const char *name;
  bool found;
} NameSearch;
static bool find_decl_name(Node *n, void *ctx) {
  NameSearch *s = ctx;
  if (n->kind == ND_DECL && n->var && !strcmp(n->var->name, s->name)) s->found = true;
  return !s->found;
}

Obj *rw_new_var(Program *p, Obj *fn, const char *hint, Type *ty, StorageClass sc, Token *at) {
  char *name = arena_strdup(hint);
  for (int i = 1;; i++) {
    NameSearch s = {name, false};
    if (fn->body) walk(fn->body, find_decl_name, NULL, &s);
    if (!s.found && !name_taken(p, fn, name)) break;
    name = fmt("%s%d", hint, i);
  }
  Obj *v = arena_alloc(sizeof(Obj));
  v->name = name;
  v->ty = ty;
  v->tok = rw_tok(at, TK_IDENT, name);
  v->sc = sc;
  v->slot = -1;
  /* chained into the locals now so a second new variable gets another name; layout rebuilds */
  if (sc == SC_LOCAL) {
    Obj **pp = &fn->locals;
    while (*pp) pp = &(*pp)->next_local;
    *pp = v;
  }
  return v;
}

Node *rw_decl(Obj *v, Node *init) {
  Node *d = new_node(ND_DECL, v->tok);
  d->var = v;
  d->ty = v->ty;
  if (init) {
    /* convert as an initializer does: through an assignment to the variable */
    Node *a = rw_assign(rw_var(v->tok, v), init);
    d->decl_init = a->rhs;
    v->init = d->decl_init;
  }
  return d;
}

/* ---- finding and splicing ---- */
typedef struct {
  Node *target;
  Node **slot;
  Node *parent;
  Node *cur_stmt;
} SlotSearch;

static Node **search_slot(Node **head, Node *target, Node **parent) {
  /* explicit stack of list heads */
  size_t cap = 64, sp = 0;
  Node ***st = xmalloc(sizeof(Node **) * cap);
  Node **pst = xmalloc(sizeof(Node *) * cap);
  st[sp] = head;
  pst[sp] = NULL;
  sp++;
  Node **found = NULL;
  while (sp && !found) {
    sp--;
    Node **slot = st[sp];
    Node *par = pst[sp];
    for (; *slot; slot = &(*slot)->next) {
      if (*slot == target) {
        found = slot;
        if (parent) *parent = par;
        break;
      }
      Node **kids[NODE_MAX_KIDS];
      int nk = node_kids(*slot, kids);
      for (int k = 0; k < nk; k++) {
        if (sp + 1 >= cap) {
          cap *= 2;
          st = xrealloc(st, sizeof(Node **) * cap);
          pst = xrealloc(pst, sizeof(Node *) * cap);
        }
        st[sp] = kids[k];
        pst[sp] = *slot;
        sp++;
      }
    }
  }
  free(st);
  free(pst);
  return found;
}

Node **rw_slot_of(Node **root, Node *n) { return search_slot(root, n, NULL); }

Node *rw_parent(Node *root, Node *n) {
  Node *par = NULL;
  Node *r = root;
  search_slot(&r, n, &par);
  return par;
}

typedef struct {
  Node *target;
  bool found;
} Contains;
static bool contains_pre(Node *n, void *ctx) {
  Contains *c = ctx;
  if (n == c->target) c->found = true;
  return !c->found;
}
bool rw_contains(Node *root, Node *n) {
  Contains c = {n, false};
  /* root alone, not its siblings */
  walk_one(root, contains_pre, NULL, &c);
  return c.found;
}

void rw_insert_before(Node **slot, Node *stmts) {
  Node *last = stmts;
  while (last->next) last = last->next;
  last->next = *slot;
  *slot = stmts;
}

typedef struct {
  int what;
  Obj *v;
  bool found;
} Finder;
static bool find_pre(Node *n, void *ctx) {
  Finder *f = ctx;
  switch (f->what) {
  case 0:
    if (n->kind == ND_CALL && n->fn) f->found = true;
    break;
  case 1:
    if (n->kind == ND_CALL && (n->builtin == BI_SYNCTHREADS || n->builtin == BI_SYNCTHREADS_COUNT ||
                               n->builtin == BI_SYNCTHREADS_AND ||
                               n->builtin == BI_SYNCTHREADS_OR || (n->fn && n->fn->uses_barrier)))
      f->found = true;
    break;
  case 2:
    if ((n->kind == ND_ASSIGN || n->kind == ND_ASSIGN_OP || n->kind == ND_PREINC ||
         n->kind == ND_PREDEC || n->kind == ND_POSTINC || n->kind == ND_POSTDEC) &&
        n->lhs->kind == ND_VAR && n->lhs->var == f->v)
      f->found = true;
    if (n->kind == ND_ADDR && n->lhs->kind == ND_VAR && n->lhs->var == f->v) f->found = true;
    if (n->kind == ND_DECL && n->var == f->v && n->decl_init) f->found = true;
    break;
  }
  return !f->found;
}
static bool find(Node *n, int what, Obj *v) {
  Finder f = {what, v, false};
  walk_one(n, find_pre, NULL, &f);
  return f.found;
}
bool rw_has_call(Node *n) { return find(n, 0, NULL); }
bool rw_has_barrier(Node *n) { return find(n, 1, NULL); }
bool rw_writes_var(Node *n, Obj *v) { return find(n, 2, v); }

Node *rw_strip(Node *n) {
  while (n && n->kind == ND_CAST && n->implicit) n = n->lhs;
  return n;
}

bool rw_same_expr(Node *a, Node *b) {
  a = rw_strip(a);
  b = rw_strip(b);
  if (!a || !b) return a == b;
  if (a->kind != b->kind) return false;
  switch (a->kind) {
  case ND_NUM: return a->ival == b->ival && a->fval == b->fval;
  case ND_VAR: return a->var == b->var;
  case ND_SPECIAL: return a->sreg == b->sreg && a->dim == b->dim;
  case ND_MEMBER: return a->member == b->member && rw_same_expr(a->lhs, b->lhs);
  case ND_CAST: return same_type(a->ty, b->ty) && rw_same_expr(a->lhs, b->lhs);
  case ND_CALL: return false; /* calls may differ each time */
  case ND_ASSIGN:
  case ND_ASSIGN_OP:
  case ND_PREINC:
  case ND_PREDEC:
  case ND_POSTINC:
  case ND_POSTDEC: return false; /* side effects: never "the same value" */
  default:
    return a->op == b->op && rw_same_expr(a->lhs, b->lhs) && rw_same_expr(a->rhs, b->rhs) &&
           rw_same_expr(a->cond, b->cond) && rw_same_expr(a->then, b->then) &&
           rw_same_expr(a->els, b->els);
  }
}

/* every pointer parameter of the kernel declared __restrict__, and the assumption stated */
void rw_restrict_params(PassCtx *c) {
  Type *ft = copy_type(c->k->ty);
  Type head = {0}, *cur = &head;
  int np = 0;
  for (Type *q = ft->params; q; q = q->next) {
    Type *t = copy_type(q);
    if (t->kind == TY_PTR) {
      t->qual |= Q_RESTRICT;
      np++;
    }
    t->name = q->name;
    cur = cur->next = t;
  }
  ft->params = head.next;
  c->k->ty = ft;
  Type *q = ft->params;
  for (Obj *o = c->k->params; o && q; o = o->next, q = q->next) o->ty = q;
  snprintf(
    c->assumed, sizeof c->assumed,
    "the %d pointer parameters do not alias (each is bound to its own buffer): declared __restrict__",
    np);
  c->spec |= OPT_SPEC_NOALIAS;
}

/* two pointer arguments of the launch point into one buffer (a host program's `k<<<>>>(d, d)`,
 * recorded as it was made): why names them */
bool rw_launch_aliases(const PassCtx *c, char *why, size_t len) {
  const Launch *L = c->L;
  if (!L || !L->args) return false;
  int i = 0;
  for (Obj *p = c->k->params; p; p = p->next, i++) {
    if (p->ty->kind != TY_PTR || ADDR_SPACE(L->args[i].u) != SPACE_GLOBAL) continue;
    int j = 0;
    for (Obj *q = c->k->params; q != p; q = q->next, j++)
      if (q->ty->kind == TY_PTR && ADDR_SPACE(L->args[j].u) == SPACE_GLOBAL &&
          ((L->args[i].u >> 40) & 0xfffff) == ((L->args[j].u >> 40) & 0xfffff)) {
        snprintf(
          why, len,
          "the launch passes one buffer as '%s' and '%s' (aliased pointers): the rewrite assumes they do not alias",
          q->name, p->name);
        return true;
      }
  }
  return false;
}

/* ---- threads that cannot see each other ---- */
typedef struct {
  int depth; /* loops and switches around the node being visited */
  bool barrier, shared, warp, fence, call, volatile_, griddim, loop_return, tid_x;
} Scan;

/* A device function is a pure function of its arguments when its body (and those of the
 * functions it calls, transitively) reads no thread, block or grid index, touches no shared,
 * volatile or __device__ variable, writes nothing but its own locals and parameters, and calls
 * nothing but math builtins: a call to it is then as separable as its arguments (DIAGNOSIS §3 of
 * bench/holdout4: heat3d's `idx3(i, j, k)`, softmax's `row_max(row, cols)`). Reading global
 * memory through a pointer argument is allowed (a read is the same for every grouping). */
typedef struct {
  bool bad, loads_ok; /* loads_ok: reading memory through a pointer is allowed */
  int depth;          /* call nesting: recursion (or nesting past 16) is refused */
} PureFn;

static bool pure_fn_pre(Node *n, void *ctx);

static bool fn_pure_at(Obj *fn, bool loads_ok, int depth) {
  if (!fn || !fn->body || depth > 16) return false;
  PureFn p = {false, loads_ok, depth};
  walk(fn->body, pure_fn_pre, NULL, &p);
  return !p.bad;
}

static bool pure_fn_pre(Node *n, void *ctx) {
  PureFn *p = ctx;
  switch (n->kind) {
  case ND_SPECIAL: p->bad = true; break;
  case ND_INDEX:
  case ND_DEREF:
    if (!p->loads_ok) p->bad = true;
    break;
  case ND_MEMBER:
    if (n->arrow && !p->loads_ok) p->bad = true;
    break;
  case ND_VAR:
    if (n->var->sc != SC_LOCAL && n->var->sc != SC_PARAM && n->var->sc != SC_CONSTANT &&
        n->var->sc != SC_FUNC)
      p->bad = true;
    if (n->var->is_volatile) p->bad = true;
    break;
  case ND_ASSIGN:
  case ND_ASSIGN_OP:
  case ND_PREINC:
  case ND_PREDEC:
  case ND_POSTINC:
  case ND_POSTDEC: {
    Node *l = n->lhs;
    if (!l || l->kind != ND_VAR || (l->var->sc != SC_LOCAL && l->var->sc != SC_PARAM) ||
        l->var->in_memory)
      p->bad = true;
    break;
  }
  case ND_DECL:
    if (n->var->sc != SC_LOCAL || n->var->in_memory) p->bad = true;
    break;
  case ND_CALL:
    if (n->fn) {
      if (!fn_pure_at(n->fn, p->loads_ok, p->depth + 1)) p->bad = true;
    } else if (n->builtin != BI_MATH && n->builtin != BI_MIN && n->builtin != BI_MAX &&
               n->builtin != BI_ABS && (n->builtin != BI_LDG || !p->loads_ok))
      p->bad = true;
    break;
  default: break;
  }
  return !p->bad;
}

bool rw_fn_pure(Obj *fn, bool loads_ok) { return fn_pure_at(fn, loads_ok, 0); }

static bool sep_pre(Node *n, void *ctx) {
  Scan *s = ctx;
  switch (n->kind) {
  case ND_FOR:
  case ND_WHILE:
  case ND_DO:
  case ND_SWITCH: s->depth++; break;
  case ND_RETURN:
    if (s->depth) s->loop_return = true;
    break;
  case ND_SPECIAL:
    if (n->sreg == SR_NCTAID && n->dim == 0) s->griddim = true;
    if (n->sreg == SR_TID && n->dim == 0) s->tid_x = true;
    break;
  case ND_VAR:
    if (n->var->sc == SC_SHARED || n->var->sc == SC_EXTERN_SHARED) s->shared = true;
    if (n->var->is_volatile) s->volatile_ = true;
    break;
  case ND_CALL:
    if (n->fn && !rw_fn_pure(n->fn, true)) s->call = true;
    switch (n->builtin) {
    case BI_SYNCTHREADS:
    case BI_SYNCTHREADS_COUNT:
    case BI_SYNCTHREADS_AND:
    case BI_SYNCTHREADS_OR: s->barrier = true; break;
    case BI_SYNCWARP:
    case BI_SHFL:
    case BI_SHFL_UP:
    case BI_SHFL_DOWN:
    case BI_SHFL_XOR:
    case BI_BALLOT:
    case BI_ANY:
    case BI_ALL:
    case BI_ACTIVEMASK: s->warp = true; break;
    case BI_THREADFENCE:
    case BI_THREADFENCE_BLOCK: s->fence = true; break;
    default: break;
    }
    break;
  default: break;
  }
  return true;
}
static bool sep_post(Node *n, void *ctx) {
  Scan *s = ctx;
  if (n->kind == ND_FOR || n->kind == ND_WHILE || n->kind == ND_DO || n->kind == ND_SWITCH)
    s->depth--;
  return true;
}

bool rw_threads_separable(Node *body, bool *reads_tid_x, char *why, size_t len) {
  Scan s = {0};
  walk(body, sep_pre, sep_post, &s);
  const char *no =
    s.barrier  ? "it synchronizes the block (__syncthreads)"
    : s.shared ? "it uses shared memory"
    : s.warp   ? "it uses warp-level operations (shuffles, votes, __syncwarp)"
    : s.fence  ? "it uses memory fences"
    : s.call
      ? "it calls a device function that is not a pure function of its arguments (it reads a thread index, shared or volatile memory, or writes memory)"
    : s.volatile_   ? "it uses volatile variables"
    : s.griddim     ? "it reads gridDim.x, which the pass changes"
    : s.loop_return ? "it returns from inside a loop"
                    : NULL;
  if (reads_tid_x) *reads_tid_x = s.tid_x;
  if (no) snprintf(why, len, "%s", no);
  return !no;
}

/* ---- small builders and tests the thread-regrouping passes share ---- */
Node *rw_assign_op(NodeKind op, Node *l, Node *r) {
  Node *n = new_node(ND_ASSIGN_OP, l->tok);
  n->op = op;
  n->lhs = l;
  n->rhs = r;
  add_type(n);
  return n;
}

Node *rw_cast(Node *e, Type *ty) {
  Node *n = new_node(ND_CAST, e->tok);
  n->lhs = e;
  n->ty = ty;
  n->cast_ty = ty;
  return n;
}

static bool effect_pre(Node *n, void *ctx) {
  bool *bad = ctx;
  switch (n->kind) {
  case ND_ASSIGN:
  case ND_ASSIGN_OP:
  case ND_PREINC:
  case ND_PREDEC:
  case ND_POSTINC:
  case ND_POSTDEC: *bad = true; break;
  case ND_CALL:
    /* a user function counts as pure only when it reads no memory either: callers test loads
     * with their own walks, which do not enter the callee */
    if ((n->fn && !rw_fn_pure(n->fn, false)) ||
        (!n->fn && n->builtin != BI_MATH && n->builtin != BI_MIN && n->builtin != BI_MAX &&
         n->builtin != BI_ABS))
      *bad = true;
    break;
  default: break;
  }
  return !*bad;
}

bool rw_pure(Node *e) {
  bool bad = false;
  if (e) walk(e, effect_pre, NULL, &bad);
  return !bad;
}

/* the slots holding threadIdx.x and blockDim.x (and, with returns, the return statements) */
typedef struct {
  Node ***v;
  int n, cap;
  bool returns;
} XSlots;
static void x_slots(Node **list, XSlots *s) {
  for (Node **slot = list; *slot; slot = &(*slot)->next) {
    Node *n = *slot;
    if ((n->kind == ND_SPECIAL && n->dim == 0 && (n->sreg == SR_TID || n->sreg == SR_NTID)) ||
        (s->returns && n->kind == ND_RETURN)) {
      if (s->n == s->cap) {
        s->cap = s->cap ? 2 * s->cap : 64;
        s->v = xrealloc(s->v, sizeof(Node **) * (size_t)s->cap);
      }
      s->v[s->n++] = slot;
      continue;
    }
    Node **kids[NODE_MAX_KIDS];
    int nk = node_kids(n, kids);
    for (int k = 0; k < nk; k++) x_slots(kids[k], s);
  }
}

Node ***rw_x_slots(Node **list, bool returns, int *n) {
  XSlots s = {.returns = returns};
  x_slots(list, &s);
  *n = s.n;
  return s.v;
}

/* `#pragma unroll` (factor 0) or `#pragma unroll N` on a loop */
void rw_pragma_unroll(Node *loop, int factor) {
  Token *p = rw_tok(loop->tok, TK_PRAGMA, "#pragma");
  p->str = factor > 0 ? fmt("unroll %d", factor) : arena_strdup("unroll");
  loop->pragma = p;
  loop->unroll = factor > 0 ? factor : -1;
}

/* ---- a kernel written anew as source ---- */

typedef struct {
  Obj *from[64], *to[64];
  int n;
} ParamMap;
static bool rebind_pre(Node *n, void *ctx) {
  ParamMap *m = ctx;
  if (n->kind == ND_VAR)
    for (int i = 0; i < m->n; i++)
      if (n->var == m->from[i]) n->var = m->to[i];
  return true;
}

/* a type a typedef of the user's program may stand for in a written kernel: numbers, void and
 * pointers or arrays of them (typedef float DATA_TYPE;), spelled without another typedef */
static bool plain_alias(Type *t) {
  while (t && (t->kind == TY_PTR || t->kind == TY_ARRAY) && !t->typedef_name) t = t->base;
  return t && !t->typedef_name && (is_numeric(t) || t->kind == TY_VOID || t->kind == TY_BOOL);
}

bool rw_replace_kernel(PassCtx *c, const char *text, char *why, size_t len) {
  /* the text is complete C: no macro of the user's program may rename its words; the program's
   * typedefs of plain types come first (the printer writes `DATA_TYPE` where the user did) */
  Buf full = {0};
  for (TopItem *it = c->p->items; it; it = it->next)
    if (it->kind == TOP_TYPEDEF && it->name && plain_alias(it->ty)) {
      buf_puts(&full, "typedef ");
      print_type_decl(&full, it->ty, it->name);
      buf_puts(&full, ";\n");
    }
  /* a template instance prints as `template <> ... K<float>(`: re-parsed under a plain name (its
   * body is what is kept), its primary template not being in scope here */
  const char *kname = c->k->name, *tp = strstr(text, "template <> "), *at = strstr(text, kname);
  if (c->k->tmpl_head && tp && at && tp < at) {
    buf_printf(&full, "%.*s%.*s__carve_instance%s", (int)(tp - text), text, (int)(at - tp - 12),
               tp + 12, at + strlen(kname));
    kname = "__carve_instance";
  } else buf_puts(&full, text);
  text = arena_strdup(full.s); /* the tokens point into it */
  buf_free(&full);
  const void *pps = pp_state_save();
  pp_state_restore(NULL);
  Token *t = pp_expand("<carve optimize>", text);
  pp_state_restore(pps);
  const void *saved = parse_state_save();
  int errs = diag_errors;
  Program *q = parse(t);
  parse_state_restore(saved);
  if (!q || q->errors || diag_errors != errs) {
    snprintf(why, len, "the kernel written does not parse: %.300s", diag_last_msg);
    return false;
  }
  Obj *nk = NULL;
  for (Obj *f = q->funcs; f; f = f->next)
    if (f->is_kernel && f->body && !strcmp(f->name, kname)) nk = f;
  if (!nk) {
    snprintf(why, len, "the kernel written does not define '%s'", c->k->name);
    return false;
  }
  ParamMap m = {.n = 0};
  Obj *a = nk->params, *b = c->k->params;
  for (; a && b && m.n < 64; a = a->next, b = b->next) {
    m.from[m.n] = a;
    m.to[m.n++] = b;
  }
  if (a || b) {
    snprintf(why, len, "the kernel written has other parameters than '%s'", c->k->name);
    return false;
  }
  walk(nk->body, rebind_pre, NULL, &m);
  c->k->body = nk->body;
  c->k->launch_bounds[0] = nk->launch_bounds[0];
  c->k->launch_bounds[1] = nk->launch_bounds[1];
  return true;
}

typedef struct {
  Obj *param;
  bool stored;
} StoreFind;
static bool store_pre(Node *n, void *ctx) {
  StoreFind *s = ctx;
  bool w = n->kind == ND_ASSIGN || n->kind == ND_ASSIGN_OP || n->kind == ND_PREINC ||
           n->kind == ND_PREDEC || n->kind == ND_POSTINC || n->kind == ND_POSTDEC;
  if (w) {
    Node *l = rw_strip(n->lhs);
    if (l->kind == ND_INDEX && rw_strip(l->lhs)->kind == ND_VAR &&
        rw_strip(l->lhs)->var == s->param)
      s->stored = true;
    if (l->kind == ND_DEREF) s->stored = true; /* through some pointer: assume it may be this one */
  }
  if (n->kind == ND_CALL && (n->fn || (n->builtin >= BI_ATOMIC_ADD && n->builtin <= BI_ATOMIC_XOR)))
    s->stored = true;
  return !s->stored;
}

bool rw_read_only(Node *body, Obj *param) {
  StoreFind s = {param, false};
  walk(body, store_pre, NULL, &s);
  return !s.stored;
}

/* a name no variable, parameter, global or function of the program uses, nor one given before */
static bool name_used(RwNames *nm, const char *x) {
  for (Obj *v = nm->c->k->params; v; v = v->next)
    if (!strcmp(v->name, x)) return true;
  for (Obj *v = nm->c->k->locals; v; v = v->next_local)
    if (!strcmp(v->name, x)) return true;
  for (Obj *v = nm->c->p->globals; v; v = v->next)
    if (!strcmp(v->name, x)) return true;
  for (Obj *v = nm->c->p->funcs; v; v = v->next)
    if (!strcmp(v->name, x)) return true;
  for (int i = 0; i < nm->n; i++)
    if (!strcmp(nm->given[i], x)) return true;
  return false;
}

const char *rw_fresh(RwNames *nm, const char *want) {
  const char *x = want;
  for (int i = 2; name_used(nm, x); i++) x = fmt("%s%d", want, i);
  if (nm->n < RW_MAX_NAMES) nm->given[nm->n++] = x;
  return x;
}

/* the special register r along dim (casts stripped) */
bool rw_is_special(Node *n, SpecialReg r, int dim) {
  n = rw_strip(n);
  return n && n->kind == ND_SPECIAL && n->sreg == r && n->dim == dim;
}

/* blockIdx.d*blockDim.d + threadIdx.d in any operand order, d < ndims: d, else -1 */
int rw_global_index_dim(Node *e, int ndims) {
  e = rw_strip(e);
  if (!e || e->kind != ND_ADD) return -1;
  for (int dim = 0; dim < ndims; dim++)
    for (int sw = 0; sw < 2; sw++) {
      Node *m = rw_strip(sw ? e->rhs : e->lhs), *t = sw ? e->lhs : e->rhs;
      if (!m || !rw_is_special(t, SR_TID, dim) || m->kind != ND_MUL) continue;
      if ((rw_is_special(m->lhs, SR_CTAID, dim) && rw_is_special(m->rhs, SR_NTID, dim)) ||
          (rw_is_special(m->lhs, SR_NTID, dim) && rw_is_special(m->rhs, SR_CTAID, dim)))
        return dim;
    }
  return -1;
}

/* the slot of the k-th statement of a list (past its end: the slot after the last) */
Node **rw_nth_slot(Node **list, int k) {
  while (k-- && *list) list = &(*list)->next;
  return list;
}

/* a copy of a merged loop with its guard (statement `at` of the body) dropped, for a fast path
 * where every merged thread or row is known to pass it: form 1 `if (G) { S }` keeps S, form 2
 * `if (!G) continue;` goes (vector and stencil) */
Node *rw_fast_loop(Node *loop, int form, int at) {
  Node *f = clone_node(loop);
  Node **slot = rw_nth_slot(&f->then->stmts, at);
  Node *rest = (*slot)->next;
  if (form == 1) {
    Node *t = (*slot)->then;
    t->next = rest;
    *slot = t;
  } else *slot = rest;
  return f;
}
