/* facts: one kernel's facts for one program generation, made once (loops.c's walk, then
 * affine.c's forms) and owned by the caller. Queries check the generation: a rewrite finished
 * with program_finish makes them stale, and using stale facts is a bug in the caller, raised as
 * an internal error rather than answered from a tree that no longer exists. */
#include "facts_impl.h"
#include <stdlib.h>
#include <string.h>

void facts_check(const Facts *f) {
  if (facts_current(f)) return;
  diag_at(
    DIAG_ERROR, (SrcLoc){0},
    "internal: facts of program generation %d used after a rewrite (generation %d): renew them",
    f ? f->generation : -1, f && f->p ? f->p->generation : -1);
  carve_throw();
}

bool facts_current(const Facts *f) {
  return f && f->p && f->generation == f->p->generation && f->nnodes == f->p->nodes;
}

VarInfo *facts_var(const Facts *f, const Obj *v) {
  if (!v || v->slot < 0 || v->slot >= f->nvars) return NULL;
  VarInfo *vi = &f->vars[v->slot];
  return vi->var == v ? vi : NULL;
}

typedef struct {
  Obj **fns;
  int n, cap;
} FnSet;

static bool fn_in(const FnSet *s, const Obj *fn) {
  for (int i = 0; i < s->n; i++)
    if (s->fns[i] == fn) return true;
  return false;
}

static bool collect_call(Node *n, void *ctx) {
  FnSet *s = ctx;
  if (n->kind == ND_CALL && n->fn && n->fn->body && !fn_in(s, n->fn)) {
    if (s->n == s->cap) {
      s->cap = s->cap ? 2 * s->cap : 8;
      s->fns = xrealloc(s->fns, sizeof *s->fns * (size_t)s->cap);
    }
    s->fns[s->n++] = n->fn;
  }
  return true;
}

/* the kernel and every device function it reaches through calls, in p->funcs order (the order
 * the loops are numbered in) */
static void reachable(Facts *f) {
  FnSet s = {0};
  if (f->kernel && f->kernel->body) {
    s.fns = xmalloc(sizeof *s.fns * 8);
    s.cap = 8;
    s.fns[s.n++] = f->kernel;
  }
  for (int i = 0; i < s.n; i++) walk(s.fns[i]->body, collect_call, NULL, &s);
  f->fns = xmalloc(sizeof(Obj *) * (size_t)(s.n + 1));
  for (Obj *fn = f->p->funcs; fn; fn = fn->next)
    if (fn_in(&s, fn)) f->fns[f->nfns++] = fn;
  free(s.fns);
}

static void kernel_vars(Facts *f) {
  Obj *k = f->kernel;
  f->nvars = k ? k->nslots : 0;
  f->vars = xmalloc(sizeof(VarInfo) * (size_t)(f->nvars + 1));
  for (Obj *v = k ? k->locals : NULL; v; v = v->next_local)
    if (v->slot >= 0 && v->slot < f->nvars) f->vars[v->slot].var = v;
}

static int *ids(int n) {
  int *a = xmalloc(sizeof(int) * (size_t)(n > 0 ? n : 1));
  for (int i = 0; i < n; i++) a[i] = -1;
  return a;
}

Facts *facts_new(Program *p, Obj *kernel) {
  Facts *f = xmalloc(sizeof *f);
  f->p = p;
  f->kernel = kernel;
  f->generation = p->generation;
  f->nnodes = p->nodes;
  f->loop_of = ids(f->nnodes);
  f->loop_index = ids(f->nnodes);
  f->access_of = ids(f->nnodes);
  reachable(f);
  kernel_vars(f);
  loops_build(f);
  affine_derive(f);
  return f;
}

void facts_free(Facts *f) {
  if (!f) return;
  loops_free(f);
  affine_free(f);
  free(f->fns);
  free(f->loop_of);
  free(f->loop_index);
  free(f->access_of);
  free(f);
}

Facts *facts_renew(Facts *f) {
  if (!f || facts_current(f)) return f;
  Program *p = f->p;
  Obj *k = f->kernel;
  facts_free(f);
  return facts_new(p, k);
}

Program *facts_program(const Facts *f) { return f->p; }
Obj *facts_kernel(const Facts *f) { return f->kernel; }
int facts_generation(const Facts *f) { return f->generation; }
int facts_nfunctions(const Facts *f) {
  facts_check(f);
  return f->nfns;
}
Obj *facts_function(const Facts *f, int i) {
  facts_check(f);
  return i >= 0 && i < f->nfns ? f->fns[i] : NULL;
}

int facts_naccesses(const Facts *f) {
  facts_check(f);
  return f->nacc;
}
const Access *facts_access(const Facts *f, int i) {
  facts_check(f);
  return i >= 0 && i < f->nacc ? &f->acc[i] : NULL;
}
const Access *facts_access_at(const Facts *f, const Node *n) {
  facts_check(f);
  int i = n && n->id >= 0 && n->id < f->nnodes ? f->access_of[n->id] : -1;
  return i >= 0 ? &f->acc[i] : NULL;
}
