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

static void test_stage_tp(void) {
  const char *defs[] = {"H=256", "W=256"};
  Opt r = run_opt("examples/tp.cu", "tp", defs, 2, NULL);
  CHECK(r.rc == 0 && applied(&r.plan, "stage"), "tp: the transposed load is staged and verified");
  const PlanStep *s = step(&r.plan, "stage");
  CHECK(s && s->verify.nsizes == 3 && s->verify.size[1].ok && !s->verify.size[1].skipped, "tp: verified at the ragged size too");
  CHECK(s && strstr(s->did, "tile[16][17]"), "tp: a 16x17 padded tile (%s)", s ? s->did : "");
  const PlanStep *sc = step(&r.plan, "scalar");
  CHECK(sc && !sc->applied && sc->legality == NOT_APPLICABLE, "tp: no loop, scalar replacement does not apply");
  const PlanStep *cp = step(&r.plan, "camping");
  CHECK(cp && !cp->applied && strstr(cp->why, "hashes"), "tp on the H100: no partition camping to remove");
  /* the printed result loads, runs and equals the original */
  Buf b = {0};
  opt_emit_source(&b, &r.plan, "examples/tp.cu", "tp");
  Program *q = load_program_text("out.cu", b.s, NULL);
  CHECK(q && q->errors == 0, "the optimized tp parses again");
  Obj *k = q ? find_kernel(q, "tp") : NULL;
  CHECK(k && k->shared_size == 16 * 17 * 4, "and its layout has the tile (%d bytes)", k ? k->shared_size : -1);
  program_free(q);
  buf_free(&b);
  done(&r);
}

static void test_camping_paper_machine(void) {
  const char *defs[] = {"H=128", "W=128"};
  PPOptions pp = {.defines = defs, .n_defines = 2};
  Program *p = load_program("examples/tp.cu", &pp);
  OptInput in = {.path = "examples/tp.cu", .pp = pp, .kernel = "tp", .m = machine_find("gt200")};
  OptOptions o = {.only = "camping", .mutation_pass = -1};
  Plan plan;
  CHECK(optimize(p, &in, &o, &plan) == 0, "tp for the GT200");
  CHECK(applied(&plan, "camping"), "diagonal reordering applies on a linearly partitioned GPU and is verified");
  const PlanStep *s = step(&plan, "camping");
  CHECK(s && s->verify.size[2].skipped, "the full size is not compared block for block after remapping");
  plan_free(&plan);
  program_free(p);
}

/* every deliberately broken variant of every pass must be rejected by verification */
static void test_mutations(void) {
  static const struct { const char *pass, *file, *kernel, *defs[2]; const char *machine; } cases[] = {
    {"scalar", "examples/mrifhd.cu", "mrifhd", {"NX=256", "NK=64"}, "h100"},
    {"stage", "examples/tp.cu", "tp", {"H=256", "W=256"}, "h100"},
    {"camping", "examples/tp.cu", "tp", {"H=128", "W=128"}, "gt200"},
  };
  int npasses, total = 0, rejected = 0;
  const Pass *const *all = opt_passes(&npasses);
  for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
    int idx = -1;
    for (int i = 0; i < npasses; i++) if (!strcmp(all[i]->name, cases[c].pass)) idx = i;
    CHECK(idx >= 0, "pass %s exists", cases[c].pass);
    if (idx < 0) continue;
    for (int m = 1; m <= all[idx]->nmutations; m++) {
      const char *defs[2] = {cases[c].defs[0], cases[c].defs[1]};
      PPOptions pp = {.defines = defs, .n_defines = 2};
      Program *p = load_program(cases[c].file, &pp);
      OptInput in = {.path = cases[c].file, .pp = pp, .kernel = cases[c].kernel, .m = machine_find(cases[c].machine)};
      OptOptions o = {.only = cases[c].pass, .mutation_pass = idx, .mutation = m};
      Plan plan;
      int rc = optimize(p, &in, &o, &plan);
      const PlanStep *s = step(&plan, cases[c].pass);
      bool rej = rc == 0 && s && s->applied && s->rejected;
      total++;
      rejected += rej;
      CHECK(rej, "mutation '%s' of %s is rejected by verification", all[idx]->mutation_names[m - 1], cases[c].pass);
      plan_free(&plan);
      program_free(p);
    }
  }
  CHECK(total >= 7 && rejected == total, "mutation test: %d of %d broken variants rejected", rejected, total);
  printf("mutation test: %d of %d broken variants rejected\n", rejected, total);
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
  test_stage_tp();
  test_camping_paper_machine();
  test_mutations();
  return TEST_SUMMARY("opt");
}
