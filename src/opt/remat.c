/* remat: an expression re-materialized at another thread or another loop iteration. A staged
 * load is executed by thread r on behalf of thread t, so the index thread t computes must be
 * recomputed with threadIdx replaced; the locals it goes through (idx = blockIdx.x*blockDim.x +
 * threadIdx.x) are forward-substituted when they have one pure definition. Anything else (a
 * value loaded from memory, a variable assigned twice, a call) makes the expression not
 * re-materializable, and the pass that asked is not legal there. */
#include "opt.h"
#include <string.h>

typedef struct { Obj *fn; const Subst *s; char *why; size_t whylen; int depth; } Remat;

typedef struct { Obj *v; int defs; Node *init; bool addr; } DefCount;
static bool count_defs(Node *n, void *ctx) {
  DefCount *d = ctx;
  if (n->kind == ND_DECL && n->var == d->v) { d->defs++; d->init = n->decl_init; }
  if ((n->kind == ND_ASSIGN || n->kind == ND_ASSIGN_OP || n->kind == ND_PREINC || n->kind == ND_PREDEC ||
       n->kind == ND_POSTINC || n->kind == ND_POSTDEC) && n->lhs->kind == ND_VAR && n->lhs->var == d->v)
    d->defs += 2;   /* any assignment besides the declaration: not a single definition */
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
    if (d.defs || d.addr) return fail(R, n, fmt("parameter '%s' is assigned in the kernel", v->name));
    Node *c = clone_nodes(n);
    return c;
  }
  if (v->sc == SC_LOCAL && !v->in_memory && !v->is_volatile) {
    DefCount d = {v, 0, NULL, false};
    walk(R->fn->body, count_defs, NULL, &d);
    if (d.defs != 1 || !d.init || d.addr) return fail(R, n, fmt("'%s' is assigned more than once", v->name));
    if (++R->depth > 64) return fail(R, n, "definitions nest too deeply");
    Node *e = rm(R, d.init);
    R->depth--;
    return e ? cast_to(e, n->ty) : NULL;
  }
  return fail(R, n, fmt("'%s' is not a register value computed once", v->name));
}

static Node *rm(Remat *R, Node *n) {
  switch (n->kind) {
  case ND_NUM: case ND_SIZEOF: return clone_nodes(n);
  case ND_SPECIAL:
    for (int i = 0; i < R->s->n; i++)
      if (R->s->reg[i] == n->sreg && R->s->dim[i] == n->dim) return cast_to(clone_nodes(R->s->to[i]), n->ty);
    return clone_nodes(n);
  case ND_VAR: return rm_var(R, n);
  case ND_CALL:
    if (n->builtin == BI_MIN || n->builtin == BI_MAX || n->builtin == BI_ABS) break;
    return fail(R, n, "the expression calls a function");
  case ND_INDEX: case ND_DEREF: case ND_MEMBER: case ND_ADDR:
    return fail(R, n, "the expression reads memory");
  case ND_ASSIGN: case ND_ASSIGN_OP: case ND_PREINC: case ND_PREDEC: case ND_POSTINC: case ND_POSTDEC:
  case ND_COMMA: case ND_STR:
    return fail(R, n, "the expression has side effects");
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
