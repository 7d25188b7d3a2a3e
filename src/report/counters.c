/* counters: every counter carve predicts beside Nsight Compute's measurement of it, with the
 * error and a flag beyond a stated tolerance (`carve bench --ncu`). The predictions are the
 * analyzer's and the model's for the same launch (analyze, count_instructions, estimate_time);
 * the measurements are read from ncu's --csv output. */
#include "report.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* the tolerances: docs/validation.md's agreement on the suite and families (H200, 2026-11-22) */
static const struct CounterDef {
  const char *name, *ncu;
  double tol;
  const char *why;
} defs[CT_N] = {
  [CT_LD_SPR] = {"global load sectors per request",
                 "l1tex__t_sectors/requests_pipe_lsu_mem_global_op_ld", 0.05,
                 "per-kernel agreement within 5% (docs/validation.md)"},
  [CT_ST_SPR] = {"global store sectors per request",
                 "l1tex__t_sectors/requests_pipe_lsu_mem_global_op_st", 0.05,
                 "per-kernel agreement within 5%"},
  [CT_SH_LD_WPI] =
    {"shared load wavefronts per instruction",
     "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld / smsp__sass_inst_executed_op_shared_ld",
     0.05, "per-kernel agreement within 5%"},
  [CT_SH_ST_WPI] =
    {"shared store wavefronts per instruction",
     "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st / smsp__sass_inst_executed_op_shared_st",
     0.05, "per-kernel agreement within 5%"},
  [CT_TPI] = {"threads per instruction", "smsp__thread_inst_executed_per_inst_executed.ratio", 0.10,
              "within 1 lane of 32 for uniform kernels (AST nodes, not SASS)"},
  [CT_WARP_INS] = {"warp instructions", "smsp__inst_executed.sum", 0.25,
                   "median error 10%, geometric mean 0.95 over 44 kernels"},
  [CT_DRAM] = {"DRAM bytes", "dram__bytes_read.sum + dram__bytes_write.sum", 0.50,
               "median error 13%, geometric mean 1.46 over 44 kernels"},
  [CT_L2] = {"L2 bytes from L1", "lts__t_sectors_srcunit_tex.sum x 32", 0.50,
             "median error 11%, geometric mean 1.51 over 44 kernels"},
  [CT_OCC] =
    {"achieved occupancy (%)", "sm__warps_active.avg.pct_of_peak_sustained_active", 0.20,
     "the theoretical occupancy, or less when the grid has too few blocks to fill the SMs; tails and imbalance lower the achieved"},
  [CT_TIME] = {"kernel time (ns)", "gpu__time_duration.sum", 0.30,
               "mean error 20-29% on the holdout kernels"},
};

const char *counter_name(int c) { return defs[c].name; }

/* ---- ncu's --csv output ---- */
bool ncu_csv_metric(const char *csv, const char *name, double *v) {
  const char *p = strstr(csv, fmt("\"%s\"", name));
  if (!p) return false;
  /* the line's last field is the value: "1,234.5" */
  const char *eol = strchr(p, '\n');
  if (!eol) eol = p + strlen(p);
  const char *q = eol;
  while (q > p && *q != '"') q--; /* closing quote of the value */
  const char *open = q - 1;
  while (open > p && *open != '"') open--;
  char buf[64];
  size_t n = 0;
  for (const char *c = open + 1; c < q && n < sizeof buf - 1; c++)
    if (*c != ',') buf[n++] = *c;
  buf[n] = 0;
  char *end;
  *v = strtod(buf, &end);
  if (end == buf) return false;
  /* units ncu may scale: the unit field sits between the name and the value */
  static const struct {
    const char *unit;
    double f;
  } units[] = {{"\"usecond\"", 1e3},
               {"\"msecond\"", 1e6},
               {"\"Kbyte\"", 1e3},
               {"\"Mbyte\"", 1e6},
               {"\"Gbyte\"", 1e9}};
  for (size_t i = 0; i < sizeof units / sizeof *units; i++) {
    const char *u = strstr(p, units[i].unit);
    if (u && u < eol) {
      *v *= units[i].f;
      break;
    }
  }
  return true;
}

static bool ratio(const char *csv, const char *num, const char *den, double *v) {
  double a, b;
  if (!ncu_csv_metric(csv, num, &a) || !ncu_csv_metric(csv, den, &b) || b <= 0) return false;
  *v = a / b;
  return true;
}

void counters_measured(const char *csv, double v[CT_N], bool have[CT_N]) {
  double a, b;
  have[CT_LD_SPR] = ratio(csv, "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
                          "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum", &v[CT_LD_SPR]);
  have[CT_ST_SPR] = ratio(csv, "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum",
                          "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum", &v[CT_ST_SPR]);
  have[CT_SH_LD_WPI] = ratio(csv, "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
                             "smsp__sass_inst_executed_op_shared_ld.sum", &v[CT_SH_LD_WPI]);
  have[CT_SH_ST_WPI] = ratio(csv, "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum",
                             "smsp__sass_inst_executed_op_shared_st.sum", &v[CT_SH_ST_WPI]);
  have[CT_TPI] =
    ncu_csv_metric(csv, "smsp__thread_inst_executed_per_inst_executed.ratio", &v[CT_TPI]);
  have[CT_WARP_INS] = ncu_csv_metric(csv, "smsp__inst_executed.sum", &v[CT_WARP_INS]);
  have[CT_DRAM] = ncu_csv_metric(csv, "dram__bytes_read.sum", &a) &&
                  ncu_csv_metric(csv, "dram__bytes_write.sum", &b);
  if (have[CT_DRAM]) v[CT_DRAM] = a + b;
  have[CT_L2] = ncu_csv_metric(csv, "lts__t_sectors_srcunit_tex.sum", &a);
  if (have[CT_L2]) v[CT_L2] = 32 * a;
  have[CT_OCC] =
    ncu_csv_metric(csv, "sm__warps_active.avg.pct_of_peak_sustained_active", &v[CT_OCC]);
  have[CT_TIME] = ncu_csv_metric(csv, "gpu__time_duration.sum", &v[CT_TIME]);
}

/* ---- predictions ---- */
double counters_achieved_occupancy(const Machine *m, Occupancy oc, int64_t blocks,
                                   int warps_per_block) {
  if (oc.blocks_per_sm <= 0 || blocks <= 0 || m->sm_count <= 0 || m->max_warps_per_sm <= 0)
    return 0;
  double per_sm = (double)blocks / m->sm_count; /* blocks resident at once on an SM, on average */
  if (per_sm < 1) per_sm = 1;
  if (per_sm > oc.blocks_per_sm) per_sm = oc.blocks_per_sm;
  return 100 * per_sm * warps_per_block / m->max_warps_per_sm;
}

typedef struct {
  Launch *L;
  const Machine *m;
  const Ceilings *ce;
  int regs;
  CounterPrediction *p;
} PredictWork;

static void kind_ratio(const Analysis *a, int space, AccessKind kind, double *v, bool *have) {
  double units = 0, req = 0;
  for (int i = 0; i < a->nacc; i++) {
    const AccessStat *s = &a->acc[i];
    if (s->space != space || s->kind != kind) continue;
    units += (double)(space == SPACE_GLOBAL ? s->sectors : s->wavefronts);
    req += (double)s->requests;
  }
  *have = req > 0;
  *v = req > 0 ? units / req : 0;
}

static void predict_work(void *ud) {
  PredictWork *w = ud;
  CounterPrediction *p = w->p;
  Launch *L = w->L;
  Analysis a;
  if (analyze(&a, L, w->m, NULL)) return;
  Counts cn;
  if (count_instructions(L, &cn, 2) == 0) {
    int threads = (int)(L->block[0] * L->block[1] * L->block[2]);
    Occupancy oc =
      occupancy(w->m, threads, w->regs, (int)(kernel_static_shared(L->kernel) + L->dyn_shared));
    Estimate e = estimate_time(L, w->m, &cn, &a, oc, *w->ce);
    p->v[CT_WARP_INS] = e.warp_instructions;
    p->v[CT_DRAM] = e.dram_bytes;
    p->v[CT_L2] = e.l2_bytes;
    int64_t blocks = L->grid[0] * L->grid[1] * L->grid[2];
    p->v[CT_OCC] = counters_achieved_occupancy(w->m, oc, blocks,
                                               (threads + w->m->warp_size - 1) / w->m->warp_size);
    /* ncu's duration is the kernel's own: the launch overhead is not in it */
    p->v[CT_TIME] = (e.total - e.t[B_LAUNCH]) * 1e9;
    p->have[CT_WARP_INS] = p->have[CT_DRAM] = p->have[CT_L2] = p->have[CT_TIME] = true;
    p->have[CT_OCC] = oc.occupancy > 0;
  }
  counts_free(&cn);
  kind_ratio(&a, SPACE_GLOBAL, ACC_LOAD, &p->v[CT_LD_SPR], &p->have[CT_LD_SPR]);
  kind_ratio(&a, SPACE_GLOBAL, ACC_STORE, &p->v[CT_ST_SPR], &p->have[CT_ST_SPR]);
  kind_ratio(&a, SPACE_SHARED, ACC_LOAD, &p->v[CT_SH_LD_WPI], &p->have[CT_SH_LD_WPI]);
  kind_ratio(&a, SPACE_SHARED, ACC_STORE, &p->v[CT_SH_ST_WPI], &p->have[CT_SH_ST_WPI]);
  p->have[CT_TPI] = a.warp_steps > 0;
  p->v[CT_TPI] = a.warp_steps ? (double)a.lane_ops / (double)a.warp_steps : 0;
  /* each global access's own figure: ncu gives these per kernel only, so they are shown, not
   * checked */
  for (int i = 0; i < a.nacc && p->naccess < 32; i++) {
    const AccessStat *s = &a.acc[i];
    if (s->space != SPACE_GLOBAL || !s->requests) continue;
    SrcLoc l = tok_loc(s->node->tok);
    p->access[p->naccess++] =
      (struct AccessPrediction){arena_strdup(s->array),
                                s->kind == ACC_LOAD    ? "load"
                                : s->kind == ACC_STORE ? "store"
                                                       : "atomic",
                                l.line, l.col, (double)s->sectors / (double)s->requests};
  }
  analysis_free(&a);
}

int counters_predict(Launch *L, const Machine *m, const Ceilings *ce, int regs,
                     CounterPrediction *p) {
  memset(p, 0, sizeof *p);
  PredictWork w = {L, m, ce, regs, p};
  /* the runs repeat what verification or the user already saw: their diagnostics stay quiet */
  int errors = diag_errors, warnings = diag_warnings;
  bool quiet = diag_quiet;
  diag_quiet = true;
  bool ok = carve_pcall(predict_work, &w);
  diag_quiet = quiet;
  diag_errors = errors;
  diag_warnings = warnings;
  int n = 0;
  for (int c = 0; c < CT_N; c++) n += p->have[c];
  return ok && n ? 0 : 2;
}

int counters_compare(const CounterPrediction *p, const double meas[CT_N], const bool have[CT_N],
                     CounterCheck out[CT_N]) {
  int flagged = 0;
  for (int c = 0; c < CT_N; c++) {
    CounterCheck *k = &out[c];
    *k = (CounterCheck){defs[c].name, defs[c].ncu, defs[c].why, p->v[c], meas[c], 0,
                        defs[c].tol,  p->have[c],  have[c],     false};
    if (!k->have_predicted || !k->have_measured) continue;
    /* both zero agree; one zero is off by everything */
    k->error = k->measured != 0 ? k->predicted / k->measured - 1 : k->predicted != 0 ? INFINITY : 0;
    k->flagged = fabs(k->error) > k->tolerance;
    flagged += k->flagged;
  }
  return flagged;
}

void counters_print(const CounterCheck *k, const CounterPrediction *p, bool json, FILE *o) {
  if (json) {
    fprintf(o, ", \"compare\": [");
    int n = 0;
    for (int c = 0; c < CT_N; c++) {
      if (!k[c].have_predicted && !k[c].have_measured) continue;
      fprintf(o, "%s{\"counter\": \"%s\", \"ncu\": \"%s\", ", n++ ? ", " : "", k[c].name, k[c].ncu);
      if (k[c].have_predicted) fprintf(o, "\"predicted\": %.6g, ", k[c].predicted);
      else fprintf(o, "\"predicted\": null, ");
      if (k[c].have_measured) fprintf(o, "\"measured\": %.6g, ", k[c].measured);
      else fprintf(o, "\"measured\": null, ");
      if (k[c].have_predicted && k[c].have_measured && isfinite(k[c].error))
        fprintf(o, "\"error\": %.4f, ", k[c].error);
      else fprintf(o, "\"error\": null, ");
      fprintf(o, "\"tolerance\": %.2f, \"flagged\": %s}", k[c].tolerance,
              k[c].flagged ? "true" : "false");
    }
    fprintf(o, "], \"predicted_accesses\": [");
    for (int i = 0; i < p->naccess; i++) {
      fprintf(o, "%s{\"array\": ", i ? ", " : "");
      json_string(o, p->access[i].array);
      fprintf(o, ", \"kind\": \"%s\", \"line\": %d, \"column\": %d, \"sectors_per_request\": %.4f}",
              p->access[i].kind, p->access[i].line, p->access[i].col,
              p->access[i].sectors_per_request);
    }
    fprintf(o, "]");
    return;
  }
  fprintf(o, "  predicted by carve against measured by ncu (flagged: beyond the tolerance):\n");
  fprintf(o, "    %-42s %14s %14s %8s %6s\n", "counter", "predicted", "measured", "error", "tol");
  for (int c = 0; c < CT_N; c++) {
    const CounterCheck *x = &k[c];
    if (!x->have_predicted && !x->have_measured) continue;
    fprintf(o, "    %-42s %14s %14s %8s %5.0f%%%s\n", x->name,
            x->have_predicted ? fmt("%.6g", x->predicted) : "-",
            x->have_measured ? fmt("%.6g", x->measured) : "n/a",
            x->have_predicted && x->have_measured
              ? (isfinite(x->error) ? fmt("%+.1f%%", 100 * x->error) : "inf")
              : "-",
            100 * x->tolerance, x->flagged ? "  FLAGGED" : "");
  }
  if (p->naccess) {
    fprintf(
      o,
      "  sectors per request of each global access (predicted; ncu measures them per kernel, above):\n");
    for (int i = 0; i < p->naccess; i++)
      fprintf(o, "    %d:%d %s of '%s': %.2f\n", p->access[i].line, p->access[i].col,
              p->access[i].kind, p->access[i].array, p->access[i].sectors_per_request);
  }
}
