/* pass unroll: `#pragma unroll` on loops whose trip count is a compile-time constant (Yang et
 * al., PLDI 2010, Sec. 3 on loop unrolling after tiling; nvcc does the unrolling, the pragma
 * says how far). A pragma changes no result, so the pass is always legal where it applies; how
 * far to unroll is a parameter for the model and the search. Loops that already carry a pragma
 * are left as the programmer wrote them. */
#include "opt.h"
#include <stdlib.h>
#include <string.h>

/* for (T i = A; i < B or i <= B; i++ or i += C) with A, B, C constants: the trip count */
static bool const_trip(Node *loop, int64_t *trip) {
  if (loop->kind != ND_FOR || !loop->init || loop->init->kind != ND_DECL || loop->init->next ||
      !loop->cond || !loop->inc)
    return false;
  Obj *iv = loop->init->var;
  int64_t a, b, step;
  if (!loop->init->decl_init || !node_int_constant(loop->init->decl_init, &a)) return false;
  Node *c = loop->cond;
  if ((c->kind != ND_LT && c->kind != ND_LE) || rw_strip(c->lhs)->kind != ND_VAR ||
      rw_strip(c->lhs)->var != iv)
    return false;
  if (!node_int_constant(c->rhs, &b)) return false;
  Node *inc = loop->inc;
  if ((inc->kind == ND_POSTINC || inc->kind == ND_PREINC) && rw_strip(inc->lhs)->kind == ND_VAR &&
      rw_strip(inc->lhs)->var == iv)
    step = 1;
  else if (inc->kind == ND_ASSIGN_OP && inc->op == ND_ADD && rw_strip(inc->lhs)->kind == ND_VAR &&
           rw_strip(inc->lhs)->var == iv && node_int_constant(inc->rhs, &step) && step > 0) {
  } else return false;
  if (rw_writes_var(loop->then, iv)) return false;
  int64_t end = c->kind == ND_LE ? b + 1 : b;
  *trip = end > a ? (end - a + step - 1) / step : 0;
  return true;
}

typedef struct {
  Node *loops[32];
  int64_t trips[32];
  int n;
} Found;
static bool find_pre(Node *n, void *ctx) {
  Found *f = ctx;
  int64_t t;
  if (n->kind == ND_FOR && !n->pragma && f->n < 32 && const_trip(n, &t) && t > 1) {
    f->loops[f->n] = n;
    f->trips[f->n++] = t;
  }
  return true;
}

static Legality legal(PassCtx *c) {
  Found f = {.n = 0};
  walk(c->k->body, find_pre, NULL, &f);
  if (!f.n) {
    snprintf(c->why, sizeof c->why, "no loop with a constant trip count and no pragma");
    return NOT_APPLICABLE;
  }
  snprintf(c->why, sizeof c->why, "%d loop%s with constant trip counts", f.n, f.n == 1 ? "" : "s");
  c->site = f.loops[0];
  return LEGAL;
}

static bool apply(PassCtx *c) {
  Found f = {.n = 0};
  walk(c->k->body, find_pre, NULL, &f);
  int full = 0, part = 0;
  for (int i = 0; i < f.n; i++) {
    Node *l = f.loops[i];
    int factor = c->param[0];
    bool all = f.trips[i] <= factor;
    rw_pragma_unroll(l, all ? 0 : factor);
    if (all) full++;
    else part++;
  }
  snprintf(c->did, sizeof c->did, "%d loop%s unrolled fully, %d by %d", full, full == 1 ? "" : "s",
           part, c->param[0]);
  return f.n > 0;
}

const Pass pass_unroll = {
  .name = "unroll",
  .summary =
    "#pragma unroll on loops with constant trip counts (fully up to the factor, else by it)",
  .source = "Yang et al., PLDI 2010, Sec. 3; the CUDA C++ Programming Guide, #pragma unroll",
  .params = {{"factor",
              "unroll by this much; loops with no more iterations are unrolled fully",
              {2, 4, 8, 16, 32},
              32}},
  .nparams = 1,
  .legal = legal,
  .apply = apply,
};
