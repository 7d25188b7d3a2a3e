/* Every bundled kernel, run in the interpreter at the small sizes of its RefCase, against its
 * C reference on the same random inputs (tests/ref/refs.c). Integers must match exactly;
 * floats within the case's relative L2 tolerance, and NaN never passes. */
#include "../src/front/front.h"
#include "../src/interp/interp.h"
#include "ref/ref.h"
#include "test.h"
#include <math.h>
#include <stdlib.h>

struct RefCtx {
  Launch *L;
  unsigned char **initial;   /* per buffer */
  unsigned char **expect;
  const char *file;
};

static int buf_index(RefCtx *c, const char *name) {
  for (int i = 1; i < c->L->nbufs; i++)
    if (!strcmp(c->L->bufs[i].name, name)) return i;
  fprintf(stderr, "%s: reference asks for unknown buffer '%s'\n", c->file, name);
  exit(3);
}

static int param_index(RefCtx *c, const char *name, Obj **out) {
  int i = 0;
  for (Obj *p = c->L->kernel->params; p; p = p->next, i++)
    if (!strcmp(p->name, name)) { *out = p; return i; }
  fprintf(stderr, "%s: reference asks for unknown parameter '%s'\n", c->file, name);
  exit(3);
}

const void *ref_in(RefCtx *c, const char *name) { return c->initial[buf_index(c, name)]; }
void *ref_out(RefCtx *c, const char *name) { return c->expect[buf_index(c, name)]; }
size_t ref_count(RefCtx *c, const char *name) { return (size_t)c->L->bufs[buf_index(c, name)].count; }
long long ref_int(RefCtx *c, const char *name) {
  Obj *p;
  int i = param_index(c, name, &p);
  return c->L->args[i].i;
}
double ref_f64(RefCtx *c, const char *name) {
  Obj *p;
  int i = param_index(c, name, &p);
  return p->ty->kind == TY_FLOAT ? (double)c->L->args[i].f : p->ty->kind == TY_DOUBLE ? c->L->args[i].d : (double)c->L->args[i].i;
}
long long ref_define(RefCtx *c, const char *name) {
  int64_t v;
  if (!program_macro_value(c->L->prog, name, &v)) { fprintf(stderr, "%s: no macro '%s'\n", c->file, name); exit(3); }
  return v;
}
void ref_grid(RefCtx *c, int grid[3], int block[3]) {
  for (int i = 0; i < 3; i++) { grid[i] = (int)c->L->grid[i]; block[i] = (int)c->L->block[i]; }
}

/* compare one output buffer; returns a description of the failure or NULL */
static const char *compare(Buffer *b, const unsigned char *exp, double tol) {
  Type *t = b->elem_ty;
  Type *comp = t->kind == TY_STRUCT ? t->members->ty : t;
  size_t n = b->bytes / (size_t)comp->size;
  if (!is_flonum(comp)) {
    for (size_t i = 0; i < b->bytes; i++)
      if (b->data[i] != exp[i]) return fmt("byte %zu differs (element %zu): got 0x%02x, want 0x%02x", i, i / (size_t)t->size, b->data[i], exp[i]);
    return NULL;
  }
  double num = 0, den = 0;
  size_t first_bad = (size_t)-1;
  for (size_t i = 0; i < n; i++) {
    double g, e;
    if (comp->kind == TY_FLOAT) { float x, y; memcpy(&x, b->data + 4 * i, 4); memcpy(&y, exp + 4 * i, 4); g = x; e = y; }
    else { memcpy(&g, b->data + 8 * i, 8); memcpy(&e, exp + 8 * i, 8); }
    if (isnan(g) || isnan(e)) return fmt("NaN at element %zu (got %g, want %g)", i, g, e);
    num += (g - e) * (g - e);
    den += e * e;
    if (first_bad == (size_t)-1 && fabs(g - e) > 1e-3 * (fabs(e) + 1e-3)) first_bad = i;
  }
  double rel = den > 0 ? sqrt(num / den) : sqrt(num);
  if (rel > tol) return fmt("relative L2 error %.3g > %.3g (first large difference at element %zu)", rel, tol, first_bad);
  return NULL;
}

static void run_case(const RefCase *rc) {
  char *path = fmt("examples/%s", rc->file);
  const char *defs[16];
  int nd = 0;
  char *d = arena_strdup(rc->defines ? rc->defines : "");
  for (char *tok = strtok(d, " "); tok && nd < 16; tok = strtok(NULL, " ")) defs[nd++] = tok;
  PPOptions pp = {.defines = defs, .n_defines = nd};
  diag_reset();
  Program *p = load_program(path, &pp);
  CHECK(p && diag_errors == 0, "%s: loads without errors", path);
  if (!p) return;
  Obj *k = find_kernel(p, rc->kernel);
  CHECK(k != NULL, "%s: kernel %s", path, rc->kernel);
  if (!k) return;
  Launch L;
  int prc = launch_prepare(&L, p, k, NULL);
  CHECK(prc == 0, "%s: launch spec prepares", path);
  if (prc) { launch_free(&L); return; }
  RefCtx c = {&L, xmalloc(sizeof(void *) * (size_t)L.nbufs), xmalloc(sizeof(void *) * (size_t)L.nbufs), path};
  for (int i = 0; i < L.nbufs; i++) {
    c.initial[i] = xmalloc(L.bufs[i].bytes + 1);
    c.expect[i] = xmalloc(L.bufs[i].bytes + 1);
    memcpy(c.initial[i], L.bufs[i].data, L.bufs[i].bytes);
    memcpy(c.expect[i], L.bufs[i].data, L.bufs[i].bytes);
  }
  RunStats st;
  int rr = interp_run(&L, NULL, &st);
  CHECK(rr == 0, "%s (%s): runs without a fault", path, rc->defines);
  if (rr == 0) {
    rc->ref(&c);
    int nout = 0;
    for (int i = 1; i < L.nbufs; i++) {
      if (!L.bufs[i].out) continue;
      nout++;
      const char *why = compare(&L.bufs[i], c.expect[i], rc->rel_tol);
      CHECK(!why, "%s %s (%s): output '%s': %s", path, rc->kernel, rc->defines, L.bufs[i].name, why);
    }
    CHECK(nout > 0, "%s: has at least one output buffer", path);
    /* inputs the spec does not mark as outputs must be unchanged */
    for (int i = 1; i < L.nbufs; i++)
      if (!L.bufs[i].out) CHECK(!memcmp(L.bufs[i].data, c.initial[i], L.bufs[i].bytes), "%s: input '%s' unchanged", path, L.bufs[i].name);
  }
  for (int i = 0; i < L.nbufs; i++) { free(c.initial[i]); free(c.expect[i]); }
  free(c.initial);
  free(c.expect);
  launch_free(&L);
}

int main(void) {
  diag_out = stderr;
  int n = 0;
  for (const RefCase *rc = ref_cases; rc->file; rc++, n++) run_case(rc);
  CHECK(n >= 17, "at least 17 bundled kernel cases (have %d)", n);
  return TEST_SUMMARY("kernels");
}
