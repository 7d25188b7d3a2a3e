/* carve's command line, report (main.h): one HTML page for a kernel at its launch (a spec, flags),
 * or for each kernel a program launched (docs/report.md): the analysis, the estimate and the
 * optimizer's plan, from the same structs as the JSON. */
#include "main.h"
#include "analysis/analysis.h"
#include "model/model.h"
#include "model/metrics.h"
#include "model/estimate.h"
#include "opt/opt.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* the optimizer's plan for the report: the kernel printed before and after the kept steps */
static void report_plan(Opts *o, Program *p, Obj *k, const Machine *m, Plan *plan, HtmlInput *in) {
  OptInput oi = {.path = o->file,
                 .pp = o->pp,
                 .kernel = k->name,
                 .grid = o->grid,
                 .block = o->block,
                 .arg_texts = o->arg_texts,
                 .nargs = o->nargs,
                 .m = m};
  Ceilings ce = ceilings_for(m, NULL);
  OptOptions oo = {.estimate = true, .ceilings = &ce, .mutation_pass = -1};
  if (optimize(p, &oi, &oo, plan)) {
    in->plan_note = fmt("The optimizer could not run: %s", plan->error);
    return;
  }
  Buf before = {0}, after = {0};
  print_function(&before, k);
  Obj *rk = plan->result ? find_kernel(plan->result, k->name) : NULL;
  if (rk) print_function(&after, rk);
  in->plan = plan;
  in->before = arena_strdup(before.s ? before.s : "");
  in->after = rk ? arena_strdup(after.s ? after.s : "") : NULL;
  buf_free(&before);
  buf_free(&after);
}

static int cmd_report_launch(Opts *o, Program *p) {
  if (diag_errors) return 2;
  const Machine *m = machine_flag(o);
  if (!m) return 2;
  Obj *k = pick_kernel(p, o->kernel, o->file, "report");
  if (!k || !k->body) return 2;
  /* the other files: a bench JSON and/or carve tune's results (JSON lines of records with a "type") */
  char *bench = NULL, *tune = NULL;
  const char *bench_path = NULL, *tune_path = NULL;
  for (int i = 1; i < o->nfiles; i++) {
    size_t n;
    char *t = read_file_max(o->files[i], 1 << 26, &n);
    if (!t) {
      fprintf(stderr, "carve report: cannot read %s: %s\n", o->files[i], strerror(errno));
      free(bench);
      free(tune);
      return 2;
    }
    const char *q = t;
    while (*q == ' ' || *q == '\n') q++;
    bool is_tune = !strncmp(q, "{\"type\": ", 9);
    char **slot = is_tune ? &tune : &bench;
    if (*slot) {
      fprintf(stderr, "carve report: two %s files ('%s')\n", is_tune ? "tuning results" : "bench",
              o->files[i]);
      free(t);
      free(bench);
      free(tune);
      return 2;
    }
    *slot = t;
    if (is_tune) tune_path = o->files[i];
    else bench_path = o->files[i];
  }
  const char *base = strrchr(o->file, '/') ? strrchr(o->file, '/') + 1 : o->file;
  const char *dot = strrchr(base, '.');
  const char *path = o->out_path
                       ? o->out_path
                       : fmt("%.*s.html", (int)(dot ? dot - base : (long)strlen(base)), base);
  Launch L;
  if (prepare_launch(o, p, k, &L)) {
    free(bench);
    free(tune);
    return 2;
  }
  L.machine = m;
  Analysis a;
  AnalyzeOptions ao = {.max_blocks = o->blocks};
  int rc = analyze(&a, &L, m, &ao);
  if (rc) {
    if (rc == 1) analysis_free(&a);
    launch_free(&L);
    free(bench);
    free(tune);
    return rc;
  }
  ReportCost cost;
  report_cost_compute(&a, &cost);
  HtmlInput in = {.file = o->file,
                  .a = &a,
                  .rc = &cost,
                  .bench_json = bench,
                  .bench_path = bench_path,
                  .tune_jsonl = tune,
                  .tune_path = tune_path,
                  .plan_note = "Not run (--no-estimate)."};
  Plan plan;
  memset(&plan, 0, sizeof plan);
  if (!o->no_estimate) report_plan(o, p, k, m, &plan, &in);
  Buf html = {0};
  report_html(&html, &in);
  rc = !strcmp(path, "-")                   ? (fwrite(html.s, 1, html.len, stdout), 0)
       : write_file(path, html.s, html.len) ? 0
                                            : 2;
  if (!rc && strcmp(path, "-")) printf("carve report: wrote %s\n", path);
  buf_free(&html);
  if (!o->no_estimate) plan_free(&plan);
  report_cost_free(&cost);
  analysis_free(&a);
  launch_free(&L);
  free(bench);
  free(tune);
  return rc;
}

/* a host program's recorded launch: one report per kernel (every kernel's first launch unless
 * --kernel or --launch picks one), named STEM.KERNEL.html after -o's stem or the file's */
static int report_recorded(Opts *o, Program *p, const RecordedLaunch *rl, const LaunchOverrides *ov,
                           void *ctx) {
  Opts q = *o;
  if (!o->kernel && !o->launch_no && !(o->out_path && !strcmp(o->out_path, "-"))) {
    const char *from = o->out_path ? o->out_path : o->file;
    const char *base = o->out_path ? from : strrchr(from, '/') ? strrchr(from, '/') + 1 : from;
    const char *dot = strrchr(base, '.');
    const char *slash = strrchr(base, '/');
    int stem = (int)(dot && (!slash || dot > slash) ? dot - base : (long)strlen(base));
    q.out_path = fmt("%.*s.%s.html", stem, base, rl->kernel->name);
  }
  return via_flags(&q, p, rl, ov, &(ViaFlags){cmd_report_launch});
}

/* report: a kernel with its launch given (pragma or flags), or each kernel a program launched */
int cmd_report(Opts *o, Program *p) {
  if (use_recorded(o, p)) return each_recorded(o, p, report_recorded, NULL);
  return cmd_report_launch(o, p);
}
