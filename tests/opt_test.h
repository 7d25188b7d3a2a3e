/* helpers the optimizer's tests share (test_opt.c, test_split.c, test_reduce.c): run carve
 * optimize on a file at given sizes, find a pass's step in the plan, ask whether it was kept. */
#ifndef CARVE_OPT_TEST_H
#define CARVE_OPT_TEST_H
#include "../src/opt/opt.h"
#include <string.h>
#include <stdio.h>
#include <stdlib.h>

typedef struct { Program *p; Plan plan; int rc; } Opt;

/* optimize `kernel` of path with the -D defines, on the H100's description (o NULL: every pass) */
/* a kernel written to a temporary file (verification reloads the source at other sizes) */
static inline char *write_tmp(const char *text) {
  char *path = arena_strdup("/tmp/carve-test-XXXXXX.cu");
  int fd = mkstemps(path, 3);
  if (fd < 0) return NULL;
  FILE *f = fdopen(fd, "w");
  fputs(text, f);
  fclose(f);
  return path;
}

static inline Opt run_opt(const char *path, const char *kernel, const char **defs, int ndefs, const OptOptions *o) {
  Opt r = {0};
  PPOptions pp = {.defines = defs, .n_defines = ndefs};
  diag_reset();
  r.p = load_program(path, &pp);
  if (!r.p) { r.rc = 2; return r; }
  OptInput in = {.path = path, .pp = pp, .kernel = kernel, .m = machine_find("h100")};
  OptOptions dflt = {.mutation_pass = -1};
  r.rc = optimize(r.p, &in, o ? o : &dflt, &r.plan);
  return r;
}

static inline void done(Opt *r) {
  if (r->rc == 0) plan_free(&r->plan);
  if (r->p) program_free(r->p);
}

static inline const PlanStep *step(const Plan *p, const char *name) {
  for (int i = 0; i < p->nsteps; i++) if (!strcmp(p->steps[i].pass->name, name)) return &p->steps[i];
  return NULL;
}

/* the step was applied, verified and kept */
static inline bool kept_step(const PlanStep *s) { return s && s->applied && !s->rejected && !s->unprofitable && s->verified; }
static inline bool applied(const Plan *p, const char *name) { return kept_step(step(p, name)); }

/* verified whole at the reduced and ragged sizes (the ragged one not skipped) and on sampled blocks */
static inline bool all_sizes_ok(const PlanStep *s) {
  /* reduced, ragged, full, and the signed-data run (issue 26) */
  /* and, where the output claims any grid, another grid (issue 26) */
  return s && s->verify.nsizes >= 4 && s->verify.size[0].ok && s->verify.size[1].ok && s->verify.size[2].ok && !s->verify.size[1].skipped &&
         s->verify.size[3].ok && !strcmp(s->verify.size[3].label, "signed") && (s->verify.nsizes == 4 || s->verify.size[4].ok || s->verify.size[4].skipped);
}
#endif
