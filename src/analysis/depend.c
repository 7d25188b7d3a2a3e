/* depend: whether the iterations of one loop of a thread are independent, decided from the
 * affine forms of the facts (affine.c) evaluated at the launch. An iteration (thread t, counter v)
 * conflicts with another (t, v') when an element one writes is read or written by the other. The
 * loop's start and bound and every index of an array the loop (or the statements given beside
 * it) writes must be polynomials over thread and block indices, launch dimensions, integer
 * parameters and the loop's own counter; each thread's iterations are enumerated and the
 * elements they touch hashed by array and element. Iterations of different threads ran
 * concurrently in the original already (a kernel without barriers), so only a thread's own
 * iterations need to be told apart; the statements beside the loop count as one more iteration
 * of their thread (they move out of its order). Every thread is checked when the elements fit the
 * budget, else evenly spread threads (the first and the last among them): the result says which. */
#include "facts_impl.h"
#include <stdlib.h>
#include <string.h>

/* the value of one symbol for thread t of a 1-D launch; false: not one this test knows */
typedef struct {
  const Facts *f;
  const Launch *L;
  int64_t tid, ctaid; /* threadIdx.x, blockIdx.x */
  Obj *iv;
  int64_t v, start; /* the loop counter's value and its start in this thread */
} Point;

static bool sym_value(const Point *pt, const Sym *s, int64_t *out) {
  const Launch *L = pt->L;
  switch (s->kind) {
  case SYM_TID: *out = s->dim == 0 ? pt->tid : 0; return true;
  case SYM_CTAID: *out = s->dim == 0 ? pt->ctaid : 0; return true;
  case SYM_NTID: *out = L->block[s->dim]; return true;
  case SYM_NCTAID: *out = L->grid[s->dim]; return true;
  case SYM_WARPSIZE: *out = 32; return true;
  case SYM_PARAM: {
    int i = 0;
    for (Obj *q = pt->f->kernel->params; q; q = q->next, i++)
      if (q == s->var) {
        *out = L->args[i].i;
        return true;
      }
    return false;
  }
  case SYM_LOOP:
    if (s->var != pt->iv || !pt->iv) return false;
    *out = pt->v;
    return true;
  case SYM_PROGRESS:
    if (s->var != pt->iv || !pt->iv) return false;
    *out = pt->v - pt->start;
    return true;
  }
  return false;
}

static bool affine_value(const Point *pt, const Affine *a, int64_t *out) {
  if (!a->ok) return false;
  uint64_t sum = 0;
  for (int i = 0; i < a->n; i++) {
    uint64_t t = (uint64_t)a->t[i].coef;
    for (int k = 0; k < a->t[i].deg; k++) {
      int64_t x;
      if (!sym_value(pt, &a->t[i].sym[k], &x)) return false;
      t *= (uint64_t)x;
    }
    sum += t;
  }
  *out = (int64_t)sum;
  return true;
}

/* does the form name the counter of a loop other than iv? */
static bool other_loop_sym(const Affine *a, const Obj *iv) {
  for (int i = 0; i < a->n; i++)
    for (int k = 0; k < a->t[i].deg; k++) {
      SymKind sk = a->t[i].sym[k].kind;
      if ((sk == SYM_LOOP || sk == SYM_PROGRESS) && a->t[i].sym[k].var != iv) return true;
    }
  return false;
}

/* ---- the accesses that matter: those of arrays the loop or the statements beside it write ---- */
typedef struct {
  const Facts *f;
  const Access **acc;
  int n, cap;
} Collect;

static void add_access(Collect *c, const Access *a) {
  for (int i = 0; i < c->n; i++)
    if (c->acc[i] == a) return;
  if (c->n == c->cap) {
    c->cap = c->cap ? 2 * c->cap : 16;
    c->acc = xrealloc(c->acc, sizeof *c->acc * (size_t)c->cap);
  }
  c->acc[c->n++] = a;
}

static bool collect_pre(Node *n, void *ctx) {
  Collect *c = ctx;
  const Access *a = facts_access_at(c->f, n);
  if (a) add_access(c, a);
  return true;
}

/* ---- the element table: (array, element) -> the iterations that touch it ---- */
typedef struct {
  int64_t elem;
  int base;
  int stamp;
  int64_t any, w;
  bool multi;
} Slot;
enum { NONE = INT64_MIN };

typedef struct {
  Slot *s;
  size_t cap;
  int stamp;
} Table;

static Slot *lookup(Table *t, int base, int64_t elem) {
  uint64_t h = ((uint64_t)elem * 0x9e3779b97f4a7c15ull) ^ ((uint64_t)base * 0xc2b2ae3d27d4eb4full);
  for (size_t i = (size_t)(h >> 20) & (t->cap - 1);; i = (i + 1) & (t->cap - 1)) {
    Slot *s = &t->s[i];
    if (s->stamp != t->stamp) {
      *s = (Slot){elem, base, t->stamp, NONE, NONE, false};
      return s;
    }
    if (s->elem == elem && s->base == base) return s;
  }
}

/* one access of iteration it: false when it meets another iteration's write (or writes what
 * another iteration touched) */
static bool touch(Table *t, int base, int64_t elem, int64_t it, bool write) {
  Slot *s = lookup(t, base, elem);
  if (s->any == NONE) s->any = it;
  else if (s->any != it) s->multi = true;
  if (write) {
    if (s->w != NONE && s->w != it) return false;
    s->w = it;
  }
  return !(s->w != NONE && s->multi);
}

/* loop `li` of f (a counted loop stepping its counter by +1 while `counter < bound`) and the
 * statements `beside` (run once by the thread, outside the loop's order) at launch L (1-D) */
bool depend_loop(const Facts *f, int li, const Launch *L, Node *const *beside, int nbeside,
                 uint64_t budget, DependResult *r) {
  facts_check(f);
  memset(r, 0, sizeof *r);
  const Loop *l = facts_loop(f, li);
  Obj *iv = l ? l->iv : NULL;
  if (!iv || l->step_op != ND_ADD || l->step != 1 || l->cmp != ND_LT || !l->bound) {
    snprintf(r->why, sizeof r->why, "not a loop `for (i = lo; i < hi; i++)`");
    return false;
  }
  Node *init = l->node->init, *lo = NULL;
  if (init && init->kind == ND_DECL && init->var == iv) lo = init->decl_init;
  else if (init && init->kind == ND_EXPR_STMT && init->lhs && init->lhs->kind == ND_ASSIGN)
    lo = init->lhs->rhs;
  Affine flo = lo ? facts_affine(f, lo) : (Affine){0};
  Affine fhi = facts_affine(f, l->bound);
  if (!flo.ok || !fhi.ok || other_loop_sym(&flo, NULL) || other_loop_sym(&fhi, NULL)) {
    snprintf(r->why, sizeof r->why,
             "the loop's start or bound is not a polynomial over thread indices and parameters");
    return false;
  }
  Collect c = {f, NULL, 0, 0};
  for (int i = 0; i < facts_naccesses(f); i++) {
    const Access *a = facts_access(f, i);
    if (a->loop >= 0 && facts_loop_within(f, a->loop, li)) add_access(&c, a);
  }
  for (int i = 0; i < nbeside; i++) walk_one(beside[i], collect_pre, NULL, &c);
  /* the arrays written: bases numbered by their first store */
  Obj *written[32];
  int nw = 0;
  bool ok = true;
  for (int i = 0; i < c.n && ok; i++) {
    const Access *a = c.acc[i];
    if (!a->store) continue;
    if (a->atomic) {
      snprintf(r->why, sizeof r->why, "line %d: an atomic", tok_loc(a->node->tok).line);
      ok = false;
      break;
    }
    if (!a->base || a->space != SPACE_GLOBAL) {
      snprintf(r->why, sizeof r->why,
               "line %d: a store other than to a global array named by a parameter",
               tok_loc(a->node->tok).line);
      ok = false;
      break;
    }
    bool seen = false;
    for (int k = 0; k < nw; k++) seen |= written[k] == a->base;
    if (!seen) {
      if (nw == 32) {
        snprintf(r->why, sizeof r->why, "more than 32 arrays written");
        ok = false;
        break;
      }
      written[nw++] = a->base;
    }
  }
  /* the accesses of written arrays, with their array's number */
  const Access **rel = xmalloc(sizeof *rel * (size_t)(c.n ? c.n : 1));
  int *relb = xmalloc(sizeof *relb * (size_t)(c.n ? c.n : 1));
  int nrel = 0;
  for (int i = 0; i < c.n && ok; i++) {
    const Access *a = c.acc[i];
    int b = -1;
    for (int k = 0; k < nw; k++)
      if (written[k] == a->base) b = k;
    if (b < 0) continue;
    if (!a->index.ok || a->indirect || other_loop_sym(&a->index, iv)) {
      snprintf(
        r->why, sizeof r->why,
        "line %d: the index of '%s' is not a polynomial over thread indices, parameters and the loop's counter",
        tok_loc(a->node->tok).line, a->base->name);
      ok = false;
      break;
    }
    rel[nrel] = a;
    relb[nrel++] = b;
  }
  int64_t threads = L->grid[0] * L->block[0];
  r->threads = threads;
  r->lo_min = INT64_MAX;
  r->hi_max = INT64_MIN;
  uint64_t cost = 0;
  Point pt = {f, L, 0, 0, iv, 0, 0};
  /* every thread's bounds (cheap), and the elements all of them would touch */
  for (int64_t t = 0; t < threads && ok; t++) {
    pt.tid = t % L->block[0];
    pt.ctaid = t / L->block[0];
    int64_t a, b;
    if (!affine_value(&pt, &flo, &a) || !affine_value(&pt, &fhi, &b)) {
      snprintf(r->why, sizeof r->why, "the loop's bounds cannot be evaluated at the launch");
      ok = false;
      break;
    }
    if (b <= a) continue;
    if (a < r->lo_min) r->lo_min = a;
    if (b > r->hi_max) r->hi_max = b;
    if (b - a > r->max_trip) r->max_trip = b - a;
    cost += (uint64_t)(b - a) * (uint64_t)nrel + (uint64_t)nrel;
  }
  if (ok && r->max_trip == 0) {
    snprintf(r->why, sizeof r->why, "no thread runs an iteration at this launch");
    ok = false;
  }
  if (ok) {
    int64_t stride = cost <= budget ? 1 : (int64_t)((cost + budget - 1) / budget);
    r->exact = stride == 1;
    Table tb = {NULL, 0, 0};
    tb.cap = 1024;
    while (tb.cap < 2 * (size_t)(r->max_trip + 1) * (size_t)(nrel ? nrel : 1)) tb.cap *= 2;
    tb.s = xmalloc(tb.cap * sizeof *tb.s);
    for (int64_t t = 0; t < threads && ok; t++) {
      if (t % stride && t != threads - 1) continue;
      pt.tid = t % L->block[0];
      pt.ctaid = t / L->block[0];
      int64_t a, b;
      affine_value(&pt, &flo, &a);
      affine_value(&pt, &fhi, &b);
      if (b <= a) continue;
      tb.stamp++;
      r->threads_checked++;
      pt.start = a;
      for (int64_t v = a - 1; v < b && ok; v++) { /* a - 1: the statements beside the loop */
        pt.v = v;
        for (int i = 0; i < nrel && ok; i++) {
          const Access *x = rel[i];
          bool in_loop = x->loop >= 0 && facts_loop_within(f, x->loop, li);
          if (in_loop != (v >= a)) continue;
          int64_t e;
          if (!affine_value(&pt, &x->index, &e)) {
            snprintf(r->why, sizeof r->why,
                     "line %d: the index of '%s' cannot be evaluated at the launch",
                     tok_loc(x->node->tok).line, x->base->name);
            ok = false;
            break;
          }
          r->elements++;
          if (!touch(&tb, relb[i], e, v, x->store)) {
            snprintf(r->why, sizeof r->why,
                     "line %d: '%s[%lld]' is touched by %s of thread %lld and written by another",
                     tok_loc(x->node->tok).line, x->base->name, (long long)e,
                     v >= a ? "an iteration" : "the statements beside the loop", (long long)t);
            r->dependent = true;
            ok = false;
          }
        }
      }
    }
    free(tb.s);
  }
  free(rel);
  free(relb);
  free(c.acc);
  return ok;
}

/* the loop's start and bound as forms (lo from its init), or false */
static bool loop_bounds(const Facts *f, const Loop *l, Affine *flo, Affine *fhi) {
  if (!l->iv || l->step_op != ND_ADD || l->step <= 0 || (l->cmp != ND_LT && l->cmp != ND_LE) ||
      !l->bound)
    return false;
  Node *init = l->node->init, *lo = NULL;
  if (init && init->kind == ND_DECL && init->var == l->iv) lo = init->decl_init;
  else if (init && init->kind == ND_EXPR_STMT && init->lhs && init->lhs->kind == ND_ASSIGN)
    lo = init->lhs->rhs;
  if (!lo) return false;
  *flo = facts_affine(f, lo);
  *fhi = facts_affine(f, l->bound);
  return flo->ok && fhi->ok && !other_loop_sym(flo, NULL) && !other_loop_sym(fhi, NULL);
}

bool depend_trip_max(const Facts *f, int li, const Launch *L, int64_t *max_trip) {
  facts_check(f);
  const Loop *l = facts_loop(f, li);
  Affine flo, fhi;
  if (!l || l->has_exit || L->block[1] != 1 || L->block[2] != 1 || L->grid[1] != 1 ||
      L->grid[2] != 1 || !loop_bounds(f, l, &flo, &fhi))
    return false;
  int64_t threads = L->grid[0] * L->block[0];
  int64_t stride = threads > (1 << 20) ? threads / (1 << 20) + 1 : 1;
  Point pt = {f, L, 0, 0, NULL, 0, 0};
  double sum = 0, n = 0, max = 0;
  for (int64_t t = 0; t < threads; t += stride) {
    pt.tid = t % L->block[0];
    pt.ctaid = t / L->block[0];
    int64_t a, b;
    if (!affine_value(&pt, &flo, &a) || !affine_value(&pt, &fhi, &b)) return false;
    int64_t trip = l->cmp == ND_LE ? b - a + 1 : b - a;
    trip = trip > 0 ? (trip + l->step - 1) / l->step : 0;
    sum += (double)trip;
    n++;
    if ((double)trip > max) max = (double)trip;
  }
  *max_trip = (int64_t)max;
  return sum > 0 && max > sum / n; /* the trip count differs by thread */
}
