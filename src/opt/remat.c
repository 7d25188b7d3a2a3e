/* remat: an expression re-materialized at another thread or another loop iteration. A staged
 * load is executed by thread r on behalf of thread t, so the index thread t computes must be
 * recomputed with threadIdx replaced; the locals it goes through (idx = blockIdx.x*blockDim.x +
 * threadIdx.x) are forward-substituted when they have one pure definition. Anything else (a
 * value loaded from memory, a variable assigned twice, a call) makes the expression not
 * re-materializable, and the pass that asked is not legal there. */
#include "opt.h"
#include <string.h>

typedef struct {
  Obj *fn;
  const Subst *s;
  char *why;
  size_t whylen;
  int depth;
} Remat;

typedef struct {
  Obj *v;
  int defs;
  Node *init;
  bool addr;
} DefCount;
static bool count_defs(Node *n, void *ctx) {
  DefCount *d = ctx;
  if (n->kind == ND_DECL && n->var == d->v) {
    d->defs++;
    d->init = n->decl_init;
  }
  if ((n->kind == ND_ASSIGN || n->kind == ND_ASSIGN_OP || n->kind == ND_PREINC ||
       n->kind == ND_PREDEC || n->kind == ND_POSTINC || n->kind == ND_POSTDEC) &&
      n->lhs->kind == ND_VAR && n->lhs->var == d->v)
    d->defs += 2; /* any assignment besides the declaration: not a single definition */
  if (n->kind == ND_ADDR && n->lhs->kind == ND_VAR && n->lhs->var == d->v) d->addr = true;
  return true;
}

static Node *cast_to(Node *e, Type *ty) {
  if (same_type(e->ty, ty)) return e;
  Node *c = new_node(ND_CAST, e->tok);
  c->lhs = e;
  c->ty = ty;
  c->cast_ty = ty;
  return c;
}

static Node *rm(Remat *R, Node *n);

static Node *fail(Remat *R, Node *n, const char *what) {
  if (R->why && !R->why[0]) {
    SrcLoc l = tok_loc(n->tok);
    snprintf(R->why, R->whylen, "%s (line %d)", what, l.line);
  }
  return NULL;
}

static Node *rm_var(Remat *R, Node *n) {
  Obj *v = n->var;
  for (int i = 0; i < R->s->nv; i++)
    if (R->s->vfrom[i] == v) return cast_to(clone_nodes(R->s->vto[i]), n->ty);
  if (v->sc == SC_PARAM) {
    DefCount d = {v, 0, NULL, false};
    walk(R->fn->body, count_defs, NULL, &d);
    if (d.defs || d.addr)
      return fail(R, n, fmt("parameter '%s' is assigned in the kernel", v->name));
    Node *c = clone_nodes(n);
    return c;
  }
  if (v->sc == SC_LOCAL && !v->in_memory && !v->is_volatile) {
    DefCount d = {v, 0, NULL, false};
    walk(R->fn->body, count_defs, NULL, &d);
    if (d.defs != 1 || !d.init || d.addr)
      return fail(R, n, fmt("'%s' is assigned more than once", v->name));
    if (++R->depth > 64) return fail(R, n, "definitions nest too deeply");
    Node *e = rm(R, d.init);
    R->depth--;
    return e ? cast_to(e, n->ty) : NULL;
  }
  return fail(R, n, fmt("'%s' is not a register value computed once", v->name));
}

static Node *rm(Remat *R, Node *n) {
  switch (n->kind) {
  case ND_NUM:
  case ND_SIZEOF: return clone_nodes(n);
  case ND_SPECIAL:
    for (int i = 0; i < R->s->n; i++)
      if (R->s->reg[i] == n->sreg && R->s->dim[i] == n->dim)
        return cast_to(clone_nodes(R->s->to[i]), n->ty);
    return clone_nodes(n);
  case ND_VAR: return rm_var(R, n);
  case ND_CALL:
    if (n->builtin == BI_MIN || n->builtin == BI_MAX || n->builtin == BI_ABS) break;
    return fail(R, n, "the expression calls a function");
  case ND_INDEX:
  case ND_DEREF:
  case ND_MEMBER:
  case ND_ADDR: return fail(R, n, "the expression reads memory");
  case ND_ASSIGN:
  case ND_ASSIGN_OP:
  case ND_PREINC:
  case ND_PREDEC:
  case ND_POSTINC:
  case ND_POSTDEC:
  case ND_COMMA:
  case ND_STR: return fail(R, n, "the expression has side effects");
  default:
    if (n->kind >= ND_BLOCK) return fail(R, n, "not an expression");
    break;
  }
  Node *c = new_node(n->kind, n->tok);
  Node *next = c->next;
  *c = *n;
  c->next = next;
  c->id = -1;
  Node **kids[NODE_MAX_KIDS];
  int nk = node_kids(c, kids);
  for (int k = 0; k < nk; k++) {
    Node head = {0}, *cur = &head;
    for (Node *a = *kids[k]; a; a = a->next) {
      Node *r = rm(R, a);
      if (!r) return NULL;
      cur = cur->next = r;
    }
    *kids[k] = head.next;
  }
  return c;
}

Node *remat(Obj *fn, Node *e, const Subst *s, char *why, size_t whylen) {
  if (why && whylen) why[0] = 0;
  Remat R = {fn, s, why, whylen, 0};
  return rm(&R, e);
}

/* ---- numeric evaluation of a re-materialized integer expression ---- */
static int64_t wrap(Type *t, int64_t v) {
  if (!t || t->size >= 8) return v;
  if (t->kind == TY_BOOL) return v != 0;
  int bits = t->size * 8;
  uint64_t m = (1ull << bits) - 1;
  uint64_t u = (uint64_t)v & m;
  if (!t->is_unsigned && (u >> (bits - 1))) u |= ~m;
  return (int64_t)u;
}

static bool ev(Node *n, const Launch *L, const int64_t tid[3], const int64_t bid[3], int64_t *v) {
  int64_t a = 0, b = 0;
  switch (n->kind) {
  case ND_NUM:
    if (is_flonum(n->ty)) return false;
    *v = n->ival;
    return true;
  case ND_SPECIAL:
    switch (n->sreg) {
    case SR_TID: *v = tid[n->dim]; return true;
    case SR_CTAID: *v = bid[n->dim]; return true;
    case SR_NTID: *v = L->block[n->dim]; return true;
    case SR_NCTAID: *v = L->grid[n->dim]; return true;
    case SR_WARPSIZE: *v = 32; return true;
    }
    return false;
  case ND_VAR: {
    if (n->var->sc != SC_PARAM || !is_integer(n->var->ty)) return false;
    int i = 0;
    for (Obj *q = L->kernel->params; q; q = q->next, i++)
      if (!strcmp(q->name, n->var->name)) {
        *v = L->args[i].i;
        return true;
      }
    return false;
  }
  case ND_CAST:
    if (!is_integer(n->ty) || !ev(n->lhs, L, tid, bid, &a)) return false;
    *v = wrap(n->ty, a);
    return true;
  case ND_NEG:
    if (!ev(n->lhs, L, tid, bid, &a)) return false;
    *v = wrap(n->ty, -a);
    return true;
  case ND_NOT:
    if (!ev(n->lhs, L, tid, bid, &a)) return false;
    *v = !a;
    return true;
  case ND_COND:
    if (!ev(n->cond, L, tid, bid, &a)) return false;
    return ev(a ? n->then : n->els, L, tid, bid, v);
  case ND_LOGAND:
    if (!ev(n->lhs, L, tid, bid, &a)) return false;
    if (!a) {
      *v = 0;
      return true;
    }
    if (!ev(n->rhs, L, tid, bid, &b)) return false;
    *v = b != 0;
    return true;
  case ND_LOGOR:
    if (!ev(n->lhs, L, tid, bid, &a)) return false;
    if (a) {
      *v = 1;
      return true;
    }
    if (!ev(n->rhs, L, tid, bid, &b)) return false;
    *v = b != 0;
    return true;
  default: break;
  }
  if (!n->lhs || !n->rhs || !ev(n->lhs, L, tid, bid, &a) || !ev(n->rhs, L, tid, bid, &b))
    return false;
  bool u = n->lhs->ty && n->lhs->ty->is_unsigned;
  switch (n->kind) {
  case ND_ADD: *v = wrap(n->ty, (int64_t)((uint64_t)a + (uint64_t)b)); return true;
  case ND_SUB: *v = wrap(n->ty, (int64_t)((uint64_t)a - (uint64_t)b)); return true;
  case ND_MUL: *v = wrap(n->ty, (int64_t)((uint64_t)a * (uint64_t)b)); return true;
  case ND_DIV:
    if (!b || (a == INT64_MIN && b == -1)) return false;
    *v = wrap(n->ty, u ? (int64_t)((uint64_t)a / (uint64_t)b) : a / b);
    return true;
  case ND_MOD:
    if (!b || (a == INT64_MIN && b == -1)) return false;
    *v = wrap(n->ty, u ? (int64_t)((uint64_t)a % (uint64_t)b) : a % b);
    return true;
  case ND_SHL:
    if (b < 0 || b > 63) return false;
    *v = wrap(n->ty, (int64_t)((uint64_t)a << b));
    return true;
  case ND_SHR:
    if (b < 0 || b > 63) return false;
    *v = wrap(n->ty, u ? (int64_t)((uint64_t)a >> b) : a >> b);
    return true;
  case ND_BITAND: *v = a & b; return true;
  case ND_BITOR: *v = a | b; return true;
  case ND_BITXOR: *v = a ^ b; return true;
  case ND_EQ: *v = a == b; return true;
  case ND_NE: *v = a != b; return true;
  case ND_LT: *v = u ? (uint64_t)a < (uint64_t)b : a < b; return true;
  case ND_LE: *v = u ? (uint64_t)a <= (uint64_t)b : a <= b; return true;
  case ND_GT: *v = u ? (uint64_t)a > (uint64_t)b : a > b; return true;
  case ND_GE: *v = u ? (uint64_t)a >= (uint64_t)b : a >= b; return true;
  default: return false;
  }
}

bool remat_eval(Node *e, const Launch *L, const int64_t tid[3], const int64_t bid[3], int64_t *v) {
  return ev(e, L, tid, bid, v);
}

/* the change of e when one coordinate grows by one, the same at every sampled point */
bool remat_stride(Node *e, const Launch *L, SpecialReg r, int dim, int64_t *stride) {
  int64_t pts[4][6] = {
    {0, 0, 0, 0, 0, 0}, {1, 2, 0, 1, 1, 0}, {3, 1, 0, 2, 0, 0}, {0, 3, 0, 0, 2, 0}};
  bool have = false;
  for (int p = 0; p < 4; p++) {
    int64_t tid[3], bid[3], t2[3], b2[3];
    for (int d = 0; d < 3; d++) {
      tid[d] = L->block[d] > 1 ? pts[p][d] % (L->block[d] - 1) : 0;
      bid[d] = L->grid[d] > 1 ? pts[p][3 + d] % (L->grid[d] - 1) : 0;
    }
    memcpy(t2, tid, sizeof t2);
    memcpy(b2, bid, sizeof b2);
    if (r == SR_TID) {
      if (L->block[dim] < 2) return false;
      t2[dim]++;
    } else if (r == SR_CTAID) {
      if (L->grid[dim] < 2) return false;
      b2[dim]++;
    } else return false;
    int64_t a, b;
    if (!ev(e, L, tid, bid, &a) || !ev(e, L, t2, b2, &b)) return false;
    if (have && b - a != *stride) return false;
    *stride = b - a;
    have = true;
  }
  return have;
}
