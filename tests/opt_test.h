/* helpers the optimizer's tests share (test_opt.c, test_split.c, test_reduce.c): run carve
 * optimize on a file at given sizes, find a pass's step in the plan, ask whether it was kept. */
#ifndef CARVE_OPT_TEST_H
#define CARVE_OPT_TEST_H
#include "../src/opt/opt.h"
#include "test.h"
#include <glob.h>
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
/* A case file's expectation, written in the file as tests/diag's are: a line
 *   // expect: PASS on KERNEL: applied[: TEXT]            kept and verified; TEXT in what it did
 *   // expect: PASS on KERNEL: not applicable: TEXT       TEXT in why
 *   // expect: PASS on KERNEL: illegal: TEXT
 * (PASS alone, on the file's own sizes). False when the file has no such line. */
typedef struct { char pass[32], kernel[64], verdict[32], text[256]; } Expect;
static inline bool read_expect(const char *path, Expect *e) {
  FILE *f = fopen(path, "r");
  char line[512];
  bool found = false;
  memset(e, 0, sizeof *e);
  while (f && !found && fgets(line, sizeof line, f)) {
    if (strncmp(line, "// expect: ", 11)) continue;
    line[strcspn(line, "\n")] = 0;
    int n = 0;
    found = sscanf(line + 11, "%31s on %63[^:]: %n", e->pass, e->kernel, &n) == 2 && n > 0;
    if (!found) break;
    const char *v = line + 11 + n, *colon = strstr(v, ": ");
    snprintf(e->verdict, sizeof e->verdict, "%.*s", colon ? (int)(colon - v) : (int)strlen(v), v);
    snprintf(e->text, sizeof e->text, "%s", colon ? colon + 2 : "");
  }
  if (f) fclose(f);
  return found;
}

/* every .cu file of dir, in name order, optimized by its expectation's pass alone and
 * judged by it; a file without an expectation, or with one not of this form, fails. The number
 * of files. */
static inline int check_expect_dir(const char *dir) {
  glob_t g;
  char pat[512];
  snprintf(pat, sizeof pat, "%s/*.cu", dir);
  if (glob(pat, 0, NULL, &g)) return 0;
  for (size_t i = 0; i < g.gl_pathc; i++) {
    const char *path = g.gl_pathv[i];
    Expect e;
    bool ok = read_expect(path, &e);
    bool applies = ok && !strcmp(e.verdict, "applied");
    Legality want = ok && !strcmp(e.verdict, "illegal") ? ILLEGAL : NOT_APPLICABLE;
    CHECK(ok && (applies || !strcmp(e.verdict, "illegal") || !strcmp(e.verdict, "not applicable")),
          "%s: no '// expect: PASS on KERNEL: applied | not applicable: WHY | illegal: WHY' line", path);
    if (!ok) continue;
    OptOptions o = {.only = e.pass, .mutation_pass = -1};
    Opt r = run_opt(path, e.kernel, NULL, 0, &o);
    const PlanStep *s = r.rc == 0 ? step(&r.plan, e.pass) : NULL;
    const char *did = s ? s->did : "", *why = s ? s->why : r.rc ? "carve failed" : "no step";
    if (applies)
      CHECK(kept_step(s) && strstr(did, e.text), "%s: %s applied and verified%s%s (%s)", path, e.pass,
            e.text[0] ? ", doing " : "", e.text, s && s->applied ? did : why);
    else
      CHECK(s && !s->applied && s->legality == want && e.text[0] && strstr(why, e.text), "%s: %s %s: '%s' (%s)", path, e.pass,
            e.verdict, e.text, why);
    done(&r);
  }
  size_t n = g.gl_pathc;
  globfree(&g);
  return (int)n;
}
#endif
