/* The optimizer: each pass on the bundled kernels and on small kernels written for the test,
 * verification by execution, and the mutation test (deliberately broken passes must be
 * rejected). `test_opt FILE KERNEL [NAME=V ...]` prints the plan and the result (debugging). */
#include "../src/opt/opt.h"
#include "test.h"
#include <stdlib.h>

static const Machine *h100(void) { return machine_find("h100"); }

typedef struct { Program *p; Plan plan; int rc; } Opt;

static Opt run_opt(const char *path, const char *kernel, const char **defs, int ndefs, const OptOptions *o) {
  Opt r = {0};
  PPOptions pp = {.defines = defs, .n_defines = ndefs};
  diag_reset();
  r.p = load_program(path, &pp);
  if (!r.p) { r.rc = 2; return r; }
  OptInput in = {.path = path, .pp = pp, .kernel = kernel, .m = h100()};
  OptOptions dflt = {.mutation_pass = -1};
  r.rc = optimize(r.p, &in, o ? o : &dflt, &r.plan);
  return r;
}

static void done(Opt *r) {
  plan_free(&r->plan);
  program_free(r->p);
}

static const PlanStep *step(const Plan *p, const char *name) {
  for (int i = 0; i < p->nsteps; i++) if (!strcmp(p->steps[i].pass->name, name)) return &p->steps[i];
  return NULL;
}

static bool applied(const Plan *p, const char *name) {
  const PlanStep *s = step(p, name);
  return s && s->applied && !s->rejected && s->verified;
}

static void test_scalar_mrifhd(void) {
  const char *defs[] = {"NX=256", "NK=64"};
  OptOptions o = {.only = "scalar", .mutation_pass = -1};
  Opt r = run_opt("examples/mrifhd.cu", "mrifhd", defs, 2, &o);
  CHECK(r.rc == 0, "mrifhd optimizes: %s", r.plan.error);
  CHECK(applied(&r.plan, "scalar"), "scalar replacement applies to mrifhd and is verified");
  const PlanStep *s = step(&r.plan, "scalar");
  CHECK(s && strstr(s->did, "5 global element"), "mrifhd: rFHD, iFHD, x, y, z kept in registers (%s)", s ? s->did : "");
  CHECK(s && s->verify.size[0].ok && s->verify.size[1].ok && s->verify.size[2].ok, "verified at reduced, ragged and full sizes");
  Buf b = {0};
  opt_emit_source(&b, &r.plan, "examples/mrifhd.cu", "mrifhd");
  CHECK(b.s && strstr(b.s, "__restrict__"), "the output declares the no-alias assumption");
  CHECK(b.s && strstr(b.s, "rFHD_acc"), "the accumulator is a register");
  buf_free(&b);
  done(&r);
}

int main(int argc, char **argv) {
  if (argc >= 3) {
    Opt r = run_opt(argv[1], argv[2], (const char **)argv + 3, argc - 3, NULL);
    if (r.rc) { fprintf(stderr, "error: %s\n", r.plan.error); return 2; }
    opt_emit_plan(stdout, &r.plan, false);
    Buf b = {0};
    opt_emit_source(&b, &r.plan, argv[1], argv[2]);
    fputs(b.s, stdout);
    buf_free(&b);
    done(&r);
    return 0;
  }
  test_scalar_mrifhd();
  return TEST_SUMMARY("opt");
}
