/* loops: the loop tree of a kernel and the device functions it calls, built by one walk that
 * also records every variable write, memory access and barrier, and what the kernel does with
 * its variables. Per loop: what it writes, whether it leaves early, and for counted loops the
 * induction variable, step, bound and compile-time trip count. Attributes that depend on where
 * a node sits (its loop, under a condition, stored to) are set by its parent's pre-visit, so the
 * walk needs no recursion and no parent pointers. */
#include "facts_impl.h"
#include <stdlib.h>
#include <string.h>

/* ---- the build ---- */
enum { F_COND = 1, F_INC = 2, F_ADDRESSED = 4, F_STORE = 8, F_RMW = 16, F_MEMBER_BASE = 32 };

typedef struct {
  Facts *f;
  Obj *fn;
  uint8_t *flags;
  uint16_t *depth;
} Build; /* depth: conditional constructs around a node */

static bool is_loop_stmt(const Node *n) {
  return n->kind == ND_FOR || n->kind == ND_WHILE || n->kind == ND_DO;
}
static bool is_rmw(const Node *n) {
  return n->kind == ND_ASSIGN_OP || (n->kind >= ND_PREINC && n->kind <= ND_POSTDEC);
}
static bool is_barrier(Builtin b) {
  return b == BI_SYNCTHREADS || b == BI_SYNCTHREADS_COUNT || b == BI_SYNCTHREADS_AND ||
         b == BI_SYNCTHREADS_OR;
}
static bool is_atomic(const Node *n) {
  return n->kind == ND_CALL && n->builtin >= BI_ATOMIC_ADD && n->builtin <= BI_ATOMIC_XOR;
}

static Node *strip_casts(Node *n) {
  while (n && n->kind == ND_CAST) n = n->lhs;
  return n;
}

static Node *strip_implicit(Node *n) {
  while (n && n->kind == ND_CAST && n->implicit) n = n->lhs;
  return n;
}

/* the target of an assignment-like node when it is a plain variable */
static Obj *write_target(Node *n) {
  Node *t = strip_casts(n->lhs);
  return t && t->kind == ND_VAR ? t->var : NULL;
}

static bool valid(const Facts *f, const Node *n) { return n->id >= 0 && n->id < f->nnodes; }

static void note_write(Facts *f, int loop, Obj *v) {
  for (; loop >= 0; loop = f->loops[loop].parent) {
    Loop *l = &f->loops[loop];
    int i = 0;
    while (i < l->nassigned && l->assigned[i] != v) i++;
    if (i == l->nassigned) {
      if (l->nassigned == l->assigned_cap) {
        l->assigned_cap = l->assigned_cap ? 2 * l->assigned_cap : 8;
        l->assigned = xrealloc(l->assigned, sizeof *l->assigned * (size_t)l->assigned_cap);
        l->writes = xrealloc(l->writes, sizeof *l->writes * (size_t)l->assigned_cap);
      }
      l->assigned[l->nassigned] = v;
      l->writes[l->nassigned++] = 0;
    }
    l->writes[i]++;
  }
}

static void note_memory_write(Facts *f, int loop) {
  for (; loop >= 0; loop = f->loops[loop].parent) f->loops[loop].writes_memory = true;
}

static void note_barrier(Facts *f, int loop) {
  for (; loop >= 0; loop = f->loops[loop].parent) f->loops[loop].barriers++;
}

static void mark_exit(Facts *f, int loop, bool all) {
  for (; loop >= 0; loop = all ? f->loops[loop].parent : -1) f->loops[loop].has_exit = true;
}

static void record_write(Facts *f, Node *n, Obj *v, int loop, bool conditional, int depth) {
  if (f->nwrites == f->write_cap) {
    f->write_cap = f->write_cap ? 2 * f->write_cap : 16;
    f->writes = xrealloc(f->writes, sizeof *f->writes * (size_t)f->write_cap);
  }
  f->writes[f->nwrites++] = (VarWrite){n, v, loop, conditional, depth};
}

static int new_loop(Facts *f, Node *n, Obj *fn, int parent) {
  if (f->nloops == f->loop_cap) {
    f->loop_cap = f->loop_cap ? 2 * f->loop_cap : 8;
    f->loops = xrealloc(f->loops, sizeof *f->loops * (size_t)f->loop_cap);
  }
  int me = f->nloops++;
  f->loops[me] = (Loop){.node = n,
                        .fn = fn,
                        .parent = parent,
                        .depth = parent >= 0 ? f->loops[parent].depth + 1 : 0,
                        .trip = -1};
  f->loop_index[n->id] = me;
  return me;
}

/* where an access's memory lives, from the declaration of its base */
static int space_of(Obj *fn, Obj *v) {
  switch (v->sc) {
  case SC_SHARED:
  case SC_EXTERN_SHARED: return SPACE_SHARED;
  case SC_CONSTANT: return SPACE_CONST;
  case SC_DEVICE_GLOBAL:
  case SC_STATIC_LOCAL: return SPACE_GLOBAL;
  case SC_LOCAL:
  case SC_PARAM:
    if (v->ty->kind == TY_ARRAY) return SPACE_LOCAL;
    return v->sc == SC_PARAM && fn->is_kernel ? SPACE_GLOBAL : SPACE_NONE;
  default: return SPACE_NONE;
  }
}

/* the variable an access starts from: a[i][j] -> a, *(p + k) -> p, &a[i] -> a, p->x -> p */
static Obj *base_var(Node *e) {
  for (;;) {
    e = strip_casts(e);
    if (!e) return NULL;
    if (e->kind == ND_INDEX || e->kind == ND_ADDR || e->kind == ND_MEMBER || e->kind == ND_DEREF)
      e = e->lhs;
    else if ((e->kind == ND_ADD || e->kind == ND_SUB) && e->ty && e->ty->kind == TY_PTR)
      e = e->lhs->ty && is_pointer_like(e->lhs->ty) ? e->lhs : e->rhs;
    else return e->kind == ND_VAR ? e->var : NULL;
  }
}

/* a non-arrow member of an element or of a dereference: memory, reported at the member */
static bool member_of_memory(Node *n) {
  while (n->kind == ND_MEMBER && !n->arrow) n = strip_implicit(n->lhs);
  return n->kind == ND_INDEX || n->kind == ND_DEREF || n->kind == ND_MEMBER;
}

static void add_access(Build *b, Node *n, int loop, uint8_t fl) {
  Facts *f = b->f;
  bool call = n->kind == ND_CALL;
  if (f->nacc == f->acc_cap) {
    f->acc_cap = f->acc_cap ? 2 * f->acc_cap : 16;
    f->acc = xrealloc(f->acc, sizeof *f->acc * (size_t)f->acc_cap);
  }
  Access *a = &f->acc[f->nacc];
  memset(a, 0, sizeof *a);
  a->node = n;
  a->fn = b->fn;
  a->loop = loop;
  a->atomic = is_atomic(n);
  a->store = a->atomic || (fl & (F_STORE | F_RMW));
  a->load = a->atomic || !(fl & F_STORE);
  a->base = base_var(call ? n->args : n);
  a->space = a->base ? space_of(b->fn, a->base) : SPACE_NONE;
  f->access_of[n->id] = f->nacc++;
}

static bool is_access(Node *n, uint8_t fl) {
  if (n->kind == ND_CALL) return is_atomic(n) || (n->builtin == BI_LDG && n->args);
  if (n->kind != ND_INDEX && n->kind != ND_DEREF && n->kind != ND_MEMBER) return false;
  if (!n->ty || n->ty->kind == TY_ARRAY || (fl & (F_ADDRESSED | F_MEMBER_BASE))) return false;
  return n->kind != ND_MEMBER || n->arrow || member_of_memory(n);
}

/* what the kernel does with its variables (the affine forms' raw material) */
static void note_var(Build *b, Node *n, uint8_t fl) {
  Facts *f = b->f;
  VarInfo *vi;
  switch (n->kind) {
  case ND_DECL:
    if (n->var && n->var->sc == SC_LOCAL && (vi = facts_var(f, n->var))) {
      vi->defs++;
      vi->init = n->decl_init;
    }
    break;
  case ND_ASSIGN:
  case ND_ASSIGN_OP:
  case ND_PREINC:
  case ND_PREDEC:
  case ND_POSTINC:
  case ND_POSTDEC:
    if (n->lhs->kind == ND_VAR && (vi = facts_var(f, n->lhs->var))) {
      vi->defs++;
      if (fl & F_INC) vi->loop = true;
    }
    break;
  case ND_ADDR:
    if (n->lhs->kind == ND_VAR && (vi = facts_var(f, n->lhs->var))) vi->addr = true;
    break;
  default: break;
  }
}

/* what a node itself does to the loops around it */
static void note_effects(Build *b, Node *n, int loop, uint8_t fl) {
  Facts *f = b->f;
  switch (n->kind) {
  case ND_BREAK:
  case ND_CONTINUE: mark_exit(f, loop, false); break;
  case ND_RETURN: mark_exit(f, loop, true); break;
  case ND_ASSIGN:
  case ND_ASSIGN_OP:
  case ND_PREINC:
  case ND_PREDEC:
  case ND_POSTINC:
  case ND_POSTDEC: {
    /* a register variable's write is a value; anything else writes memory (an in-memory
     * variable is both: its own value and memory) */
    Obj *v = write_target(n);
    if (v) record_write(f, n, v, loop, fl & F_COND, b->depth[n->id]);
    if (v) note_write(f, loop, v);
    if (!v || v->in_memory) note_memory_write(f, loop);
    break;
  }
  case ND_DECL:
    if (n->var) {
      note_write(f, loop, n->var);
      record_write(f, n, n->var, loop, fl & F_COND, b->depth[n->id]);
    }
    break;
  case ND_CALL:
    /* an async copy writes its shared destination at some point up to its wait */
    if (n->fn || is_atomic(n) || n->builtin == BI_PRINTF || n->builtin == BI_PIPE_COPY ||
        n->builtin == BI_PIPE_WAIT)
      note_memory_write(f, loop);
    if (is_barrier(n->builtin)) {
      if (f->nbars == f->bar_cap) {
        f->bar_cap = f->bar_cap ? 2 * f->bar_cap : 8;
        f->bars = xrealloc(f->bars, sizeof *f->bars * (size_t)f->bar_cap);
      }
      f->bars[f->nbars++] = (Barrier){n, b->fn, loop};
      note_barrier(f, loop);
    } else if (n->fn && n->fn->uses_barrier) note_barrier(f, loop);
    break;
  default: break;
  }
}

/* the attributes of n's children, from n's own and the field holding them */
static void set_kids(Build *b, Node *n, int loop, int me, uint8_t fl) {
  Facts *f = b->f;
  bool branches = n->kind == ND_IF || n->kind == ND_COND || n->kind == ND_SWITCH;
  bool lazy = n->kind == ND_LOGAND || n->kind == ND_LOGOR; /* the right side runs conditionally */
  Node **kids[NODE_MAX_KIDS];
  int nk = node_kids(n, kids);
  for (int k = 0; k < nk; k++) {
    Node **fld = kids[k];
    int kl = is_loop_stmt(n) && fld == &n->init ? loop : me; /* the init runs once per entry */
    uint8_t kf = fl & F_COND;
    int kd = b->depth[n->id];
    if ((branches && (fld == &n->then || fld == &n->els)) || (lazy && fld == &n->rhs)) {
      kf |= F_COND;
      kd++;
    }
    if ((n->kind == ND_FOR && fld == &n->inc) ||
        ((fl & F_INC) && (fld == &n->lhs || fld == &n->rhs || fld == &n->args)))
      kf |= F_INC;
    if (fld == &n->lhs) {
      if (n->kind == ND_ADDR) kf |= F_ADDRESSED;
      else if (n->kind == ND_ASSIGN) kf |= F_STORE;
      else if (is_rmw(n)) kf |= F_RMW;
      else if (n->kind == ND_MEMBER && !n->arrow) kf |= F_MEMBER_BASE;
    }
    for (Node *m = *fld; m; m = m->next)
      if (valid(f, m)) {
        f->loop_of[m->id] = kl;
        b->flags[m->id] = kf;
        b->depth[m->id] = (uint16_t)(kd < UINT16_MAX ? kd : UINT16_MAX);
      }
  }
}

static bool build_pre(Node *n, void *ctx) {
  Build *b = ctx;
  Facts *f = b->f;
  if (!valid(f, n)) return false; /* made outside the program (id -1): not in this generation */
  int loop = f->loop_of[n->id];
  uint8_t fl = b->flags[n->id];
  int me = is_loop_stmt(n) ? new_loop(f, n, b->fn, loop) : loop;
  if (b->fn == f->kernel) note_var(b, n, fl);
  note_effects(b, n, loop, fl);
  if (is_access(n, fl)) add_access(b, n, loop, fl);
  set_kids(b, n, loop, me, fl);
  return true;
}

/* ---- counted loops ---- */

/* the counter's start value, from the for-statement's init */
static bool init_value(Node *init, Obj *iv, int64_t *v) {
  for (Node *d = init; d; d = d->next) {
    if (d->kind == ND_DECL && d->var == iv)
      return d->decl_init && node_int_constant(d->decl_init, v);
    Node *x = d->kind == ND_EXPR_STMT ? d->lhs : d;
    if (x && x->kind == ND_ASSIGN && write_target(x) == iv) return node_int_constant(x->rhs, v);
  }
  return false;
}

/* the trip count of a counter from v while (v cmp bound), stepping by op/step in a type of
 * `size` bytes; -1 when it does not end within 4096 steps or leaves the type's range */
static int64_t count_trips(int64_t v, int cmp, int64_t bound, NodeKind op, int64_t step, int size) {
  if ((op == ND_DIV || op == ND_MUL) && step == 0) return -1;
  if ((op == ND_SHL || op == ND_SHR) && (step < 0 || step >= 8 * size)) return -1;
  int64_t lim = size >= 8 ? INT64_MAX / 4 : (int64_t)1 << (8 * size - 1);
  int64_t n = 0;
  for (;;) {
    bool go = cmp == ND_LT   ? v < bound
              : cmp == ND_LE ? v <= bound
              : cmp == ND_GT ? v > bound
              : cmp == ND_GE ? v >= bound
                             : v != bound;
    if (!go) return n;
    if (++n > 4096) return -1;
    if (op == ND_ADD) v += step;
    else if (op == ND_MUL) v *= step;
    else if (op == ND_SHL) v = (int64_t)((uint64_t)v << step);
    else if (op == ND_SHR) v >>= step;
    else if (op == ND_DIV) v /= step;
    else return -1;
    if (v >= lim || v < -lim) return -1; /* would wrap: leave it to the run */
  }
}

/* the increment's operation and step, when it is one of the counted forms */
static bool step_of(Node *inc, NodeKind *op, int64_t *step) {
  switch (inc->kind) {
  case ND_PREINC:
  case ND_POSTINC:
    *op = ND_ADD;
    *step = 1;
    return true;
  case ND_PREDEC:
  case ND_POSTDEC:
    *op = ND_ADD;
    *step = -1;
    return true;
  case ND_ASSIGN_OP:
    if (!node_int_constant(inc->rhs, step)) return false;
    *op = inc->op;
    if (*op == ND_SUB) {
      *op = ND_ADD;
      *step = -*step;
    }
    return *op == ND_ADD || *op == ND_MUL || *op == ND_SHL || *op == ND_SHR || *op == ND_DIV;
  default: return false;
  }
}

static void classify_loop(Facts *f, int li) {
  Loop *l = &f->loops[li];
  Node *n = l->node;
  if (n->kind != ND_FOR || !n->inc || !n->cond) return;
  Node *inc = n->inc->kind == ND_EXPR_STMT ? n->inc->lhs : n->inc;
  Obj *iv = write_target(inc);
  if (!iv || iv->in_memory) return;
  if (facts_loop_writes(f, li, iv) != 1) return; /* written elsewhere in the body */
  NodeKind op;
  int64_t step;
  if (!step_of(inc, &op, &step)) return;
  Node *c = n->cond;
  if (c->kind < ND_NE || c->kind > ND_GE) return;
  NodeKind cmp = c->kind;
  Node *bound;
  if (strip_casts(c->lhs)->kind == ND_VAR && strip_casts(c->lhs)->var == iv) bound = c->rhs;
  else if (strip_casts(c->rhs)->kind == ND_VAR &&
           strip_casts(c->rhs)->var == iv) { /* bound < i: flip */
    bound = c->lhs;
    cmp = cmp == ND_LT   ? ND_GT
          : cmp == ND_LE ? ND_GE
          : cmp == ND_GT ? ND_LT
          : cmp == ND_GE ? ND_LE
                         : cmp;
  } else return;
  if (!facts_loop_invariant(f, li, bound)) return;
  l->iv = iv;
  l->step_op = op;
  l->step = step;
  l->cmp = cmp;
  l->bound = bound;
  l->start_known = init_value(n->init, iv, &l->start);
  int64_t b;
  if (!l->has_exit && l->start_known && node_int_constant(bound, &b))
    l->trip = count_trips(l->start, cmp, b, op, step, iv->ty ? iv->ty->size : 4);
}

void loops_build(Facts *f) {
  size_t nn = (size_t)(f->nnodes > 0 ? f->nnodes : 1);
  Build b = {f, NULL, xmalloc(nn), xmalloc(nn * sizeof(uint16_t))};
  for (int i = 0; i < f->nfns; i++) {
    b.fn = f->fns[i];
    /* a device function's body is taken as outside any loop: nvcc inlines it, and the loops
     * around each call are the caller's */
    for (Node *m = b.fn->body; m; m = m->next)
      if (valid(f, m)) {
        f->loop_of[m->id] = -1;
        b.flags[m->id] = 0;
        b.depth[m->id] = 0;
      }
    walk(b.fn->body, build_pre, NULL, &b);
  }
  free(b.flags);
  free(b.depth);
  for (int i = 0; i < f->nloops; i++) classify_loop(f, i);
}

void loops_free(Facts *f) {
  for (int i = 0; i < f->nloops; i++) {
    free(f->loops[i].assigned);
    free(f->loops[i].writes);
  }
  free(f->loops);
  free(f->writes);
  free(f->acc);
  free(f->bars);
}

/* ---- queries ---- */
int facts_loop_writes(const Facts *f, int loop, const Obj *v) {
  facts_check(f);
  if (loop < 0 || loop >= f->nloops) return 0;
  const Loop *l = &f->loops[loop];
  for (int i = 0; i < l->nassigned; i++)
    if (l->assigned[i] == v) return l->writes[i];
  return 0;
}

typedef struct {
  const Facts *f;
  int loop;
  bool ok;
} Inv;

static bool invariant_pre(Node *e, void *ctx) {
  Inv *iv = ctx;
  if (!iv->ok) return false;
  const Loop *l = &iv->f->loops[iv->loop];
  bool array = e->ty && e->ty->kind == TY_ARRAY;
  switch (e->kind) {
  case ND_NUM:
  case ND_SIZEOF:
  case ND_SPECIAL:
  case ND_STR: return false;
  case ND_VAR:
    if (e->var->is_volatile) iv->ok = false;
    else if (!array && (facts_loop_writes(iv->f, iv->loop, e->var) ||
                        (e->var->in_memory && l->writes_memory)))
      iv->ok = false;
    return false;
  case ND_DEREF:
  case ND_INDEX:
  case ND_MEMBER:
    /* a load moves out of the loop only when nothing in the loop may store to memory */
    if (l->writes_memory && !array) iv->ok = false;
    return iv->ok;
  case ND_CALL:
    if (e->fn || e->builtin == BI_NONE) iv->ok = false;
    else if (!(e->builtin == BI_MATH || e->builtin == BI_MIN || e->builtin == BI_MAX ||
               e->builtin == BI_ABS || (e->builtin >= BI_POPC && e->builtin <= BI_BREV) ||
               e->builtin == BI_MAKE_VECTOR))
      iv->ok = false;
    return iv->ok;
  case ND_ASSIGN:
  case ND_ASSIGN_OP:
  case ND_PREINC:
  case ND_PREDEC:
  case ND_POSTINC:
  case ND_POSTDEC: iv->ok = false; return false;
  default:
    if (e->kind >= ND_BLOCK) iv->ok = false;
    return iv->ok;
  }
}

bool facts_loop_invariant(const Facts *f, int loop, Node *e) {
  facts_check(f);
  if (loop < 0 || loop >= f->nloops) return true;
  Inv iv = {f, loop, true};
  walk_one(e, invariant_pre, NULL, &iv);
  return iv.ok;
}

int facts_nloops(const Facts *f) {
  facts_check(f);
  return f->nloops;
}
const Loop *facts_loop(const Facts *f, int i) {
  facts_check(f);
  return i >= 0 && i < f->nloops ? &f->loops[i] : NULL;
}
int facts_loop_index(const Facts *f, const Node *n) {
  facts_check(f);
  return n && valid(f, n) ? f->loop_index[n->id] : -1;
}
int facts_loop_of(const Facts *f, const Node *n) {
  facts_check(f);
  return n && valid(f, n) ? f->loop_of[n->id] : -1;
}

bool facts_loop_within(const Facts *f, int inner, int outer) {
  facts_check(f);
  for (int k = inner; k >= 0 && k < f->nloops; k = f->loops[k].parent)
    if (k == outer) return true;
  return false;
}

int facts_nwrites(const Facts *f) {
  facts_check(f);
  return f->nwrites;
}
const VarWrite *facts_write(const Facts *f, int i) {
  facts_check(f);
  return i >= 0 && i < f->nwrites ? &f->writes[i] : NULL;
}
int facts_nbarriers(const Facts *f) {
  facts_check(f);
  return f->nbars;
}
const Barrier *facts_barrier(const Facts *f, int i) {
  facts_check(f);
  return i >= 0 && i < f->nbars ? &f->bars[i] : NULL;
}
