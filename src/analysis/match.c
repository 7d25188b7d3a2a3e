/* match: pattern matchers over the AST (match.h). Each looks at one expression or walks one
 * subtree with walk(); none changes the tree. */
#include "match.h"

/* integer to integer of at least 32 bits: an index's value is the same on either side */
static bool index_cast(Node *n) {
  return n->kind == ND_CAST && n->ty && n->lhs && n->lhs->ty && is_integer(n->ty) &&
         is_integer(n->lhs->ty) && n->ty->size >= 4 && n->lhs->ty->size <= n->ty->size;
}

/* cast stripper: implicit conversions always, explicit ones between integer types */
Node *m_strip(Node *n) {
  while (n && n->kind == ND_CAST && (n->implicit || index_cast(n))) n = n->lhs;
  return n;
}

static bool commutes(NodeKind k) {
  return k == ND_ADD || k == ND_MUL || k == ND_BITAND || k == ND_BITOR || k == ND_BITXOR ||
         k == ND_EQ || k == ND_NE;
}

/* a k b, trying (a, b) then (b, a) for a commuting k until p1(a) holds */
bool m_bin(Node *n, NodeKind k, MatchPred *p1, void *ctx, Node **a, Node **b) {
  n = m_strip(n);
  if (!n || n->kind != k) return false;
  for (int sw = 0; sw < (commutes(k) ? 2 : 1); sw++) {
    Node *x = sw ? n->rhs : n->lhs, *y = sw ? n->lhs : n->rhs;
    if (p1 && !p1(x, ctx)) continue;
    if (a) *a = x;
    if (b) *b = y;
    return true;
  }
  return false;
}

bool m_special(Node *n, SpecialReg r, int *dim) {
  n = m_strip(n);
  if (!n || n->kind != ND_SPECIAL || n->sreg != r) return false;
  if (dim) *dim = n->dim;
  return true;
}

bool m_const(Node *n, int64_t *v) {
  n = m_strip(n);
  return n && is_integer(n->ty) && node_int_constant(n, v);
}

static bool is_tid(Node *n, void *ctx) {
  (void)ctx;
  return m_special(n, SR_TID, NULL);
}
static bool is_ctaid(Node *n, void *ctx) {
  (void)ctx;
  return m_special(n, SR_CTAID, NULL);
}

/* blockIdx.d * S + threadIdx.d */
bool m_global_index(Node *e, int *dim, Node **scale, bool *by_const, int64_t *cval) {
  Node *t, *m, *b, *s;
  int dt = -1, db = -2, ds = -3;
  if (!m_bin(e, ND_ADD, is_tid, NULL, &t, &m) || !m_bin(m, ND_MUL, is_ctaid, NULL, &b, &s))
    return false;
  m_special(t, SR_TID, &dt);
  m_special(b, SR_CTAID, &db);
  if (dt != db) return false;
  int64_t v = 0;
  bool k = false;
  if (m_special(s, SR_NTID, &ds)) {
    if (ds != dt) return false;
  } else if (m_const(s, &v)) k = true;
  else return false;
  if (dim) *dim = dt;
  if (scale) *scale = s;
  if (by_const) *by_const = k;
  if (cval) *cval = v;
  return true;
}

typedef struct {
  const Obj *v;
  int uses;
  bool writes, addr;
} VarScan;
static bool var_pre(Node *n, void *ctx) {
  VarScan *s = ctx;
  switch (n->kind) {
  case ND_VAR:
    if (n->var == s->v) s->uses++;
    break;
  case ND_DECL:
    if (n->var == s->v && n->decl_init) s->writes = true;
    break;
  case ND_ASSIGN:
  case ND_ASSIGN_OP:
  case ND_PREINC:
  case ND_PREDEC:
  case ND_POSTINC:
  case ND_POSTDEC: {
    Node *l = m_strip(n->lhs);
    if (l && l->kind == ND_VAR && l->var == s->v) s->writes = true;
    break;
  }
  case ND_ADDR: {
    Node *l = m_strip(n->lhs);
    if (l && l->kind == ND_VAR && l->var == s->v) s->addr = true;
    break;
  }
  default: break;
  }
  return true;
}

static VarScan var_scan(Node *n, const Obj *v) {
  VarScan s = {v, 0, false, false};
  if (n) walk_one(n, var_pre, NULL, &s);
  return s;
}

int m_uses(Node *n, const Obj *v) { return var_scan(n, v).uses; }
bool m_writes(Node *n, const Obj *v) { return var_scan(n, v).writes; }
bool m_addr_taken(Node *n, const Obj *v) { return var_scan(n, v).addr; }

typedef struct {
  bool returns_only, found;
  int loops;
} JumpScan;
static bool jump_pre(Node *n, void *ctx) {
  JumpScan *s = ctx;
  if (n->kind == ND_RETURN) s->found = true;
  if ((n->kind == ND_BREAK || n->kind == ND_CONTINUE) && !s->returns_only && !s->loops)
    s->found = true;
  if (n->kind == ND_FOR || n->kind == ND_WHILE || n->kind == ND_DO || n->kind == ND_SWITCH)
    s->loops++;
  return !s->found;
}
static bool jump_post(Node *n, void *ctx) {
  JumpScan *s = ctx;
  if (n->kind == ND_FOR || n->kind == ND_WHILE || n->kind == ND_DO || n->kind == ND_SWITCH)
    s->loops--;
  return true;
}

bool m_has_jump(Node *n, bool returns_only) {
  JumpScan s = {returns_only, false, 0};
  if (n) walk_one(n, jump_pre, jump_post, &s);
  return s.found;
}

/* threadIdx in e, or in the initializer of a local e reads (followed to a bounded depth) */
typedef struct {
  Node *body;
  bool found;
  int depth;
} TidDep;
static bool local_def_reads_tid(Node *body, Obj *v, int depth);
static bool tiddep_pre(Node *n, void *ctx) {
  TidDep *t = ctx;
  if (n->kind == ND_SPECIAL && n->sreg == SR_TID) t->found = true;
  if (n->kind == ND_VAR && n->var->sc == SC_LOCAL && t->depth < 4 &&
      local_def_reads_tid(t->body, n->var, t->depth + 1))
    t->found = true;
  return !t->found;
}
typedef struct {
  Obj *v;
  Node *init;
} DefFind;
static bool deffind_pre(Node *n, void *ctx) {
  DefFind *d = ctx;
  if (n->kind == ND_DECL && n->var == d->v) d->init = n->decl_init;
  return !d->init;
}
static bool local_def_reads_tid(Node *body, Obj *v, int depth) {
  DefFind d = {v, NULL};
  walk_one(body, deffind_pre, NULL, &d);
  if (!d.init) return false;
  TidDep t = {body, false, depth};
  walk_one(d.init, tiddep_pre, NULL, &t);
  return t.found;
}

bool m_thread_dependent(Node *body, Node *e) {
  TidDep t = {body, false, 0};
  if (e) walk_one(e, tiddep_pre, NULL, &t);
  return t.found;
}
