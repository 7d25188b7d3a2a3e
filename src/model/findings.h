/* findings: an analysis as findings, the analyzer's rules (what is a finding, its level and
 * remedy) and what each costs, ranked (findings.c). Computed here, beside the model whose
 * estimate prices them; printed by src/report (report.c: text, JSON, SARIF; html.c). */
#ifndef CARVE_FINDINGS_H
#define CARVE_FINDINGS_H
#include "../analysis/analysis.h"
#include "estimate.h"

/* What findings cost: the model's estimate of the same launch (metrics.c's estimate_time on
 * the analysis and an instruction count of sampled blocks), with the warp instructions per
 * source line of the kernel's file. A finding's saving is the estimate less the estimate with
 * the finding's excess work taken off the limits it loads (the limits combine as in
 * estimate_time: their 3-norm plus the launch). */
typedef struct ReportCost {
  bool ok;
  Estimate e;
  double *line_ins;
  int nlines; /* warp instructions per line (counts_free'd copy) */
  double line_ins_total;
  double *line_stalls;    /* memory stalls (lanes) per line */
  double fp32_per_thread; /* FP32 lane-instructions per thread (the roofline's flops) */
  double threads;         /* in the grid */
  SrcFile *file;          /* the file line_ins counts lines of */
} ReportCost;
/* 0 ok; otherwise rc->ok is false and findings keep their fixed levels. Prints nothing. */
int report_cost_compute(Analysis *a, ReportCost *rc);
void report_cost_free(ReportCost *rc);
/* the estimated total for limit times t (estimate_time's combination) */
double report_overlap_total(const double t[B_N]);

typedef struct Finding {
  int level; /* 1 note, 2 warning, 3 error */
  const char *category;
  Node *at;
  char *msg, *remedy;
  double saving_s; /* estimated seconds saved by removing its excess work; < 0 unknown */
  double
    share; /* saving over the estimated kernel time, launch overhead excluded (0-1); < 0 unknown */
  const char *limit; /* the limit most of its work loads, NULL unknown */
} Finding;
typedef struct Findings {
  Finding *f;
  int n;
} Findings;
/* the findings, ranked by saving (unknown ones after, by level); cheap idioms (a branch or a
 * reuse that costs under 0.5% of the kernel) are left out; with a cost, levels follow the share:
 * 10% or more a warning, else a note */
Findings findings_collect(Analysis *a, const ReportCost *rc);
void findings_free(Findings *fs);

/* reads per element within a block: over a whole block when measured there, else over the
 * sampled warps (*whole says which) */
double access_reuse(const AccessStat *s, bool *whole);

/* an access as the rules and the printers name it: "load", "store" or "atomic"; its class
 * ("unit stride", "stride 4", "indirect", ...); the sectors a request needs at best; whether
 * every sampled request cost the same with an affine index (the rule gives the exact answer) */
const char *access_kind_name(AccessKind k);
const char *access_class(const AccessStat *s);
double access_ideal_sectors(const AccessStat *s);
bool access_exact(const AccessStat *s);
#endif
