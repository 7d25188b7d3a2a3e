/* report: printing results, computing nothing.
 *   report.c           an analysis's findings (src/model/findings.h: location, cost, remedy) as
 *                      text, JSON (docs/analyze-json.md), SARIF 2.1.0
 *   estimate_report.c  an estimate and a ranking of variants: text, JSON (docs/estimate-json.md) */
#ifndef CARVE_REPORT_H
#define CARVE_REPORT_H
#include "../analysis/analysis.h"
#include "../model/estimate.h"
#include "../model/findings.h"

typedef enum { FMT_TEXT, FMT_JSON, FMT_SARIF } ReportFormat;

/* print the report; returns the highest finding level (0 none, 1 note, 2 warning, 3 error) */
int report(Analysis *a, const char *file, ReportFormat f, FILE *out);
/* the same with costs (rc may be NULL) */
int report_costed(Analysis *a, const ReportCost *rc, const char *file, ReportFormat f, FILE *out);

/* faults.c: `"fault_details": [...], "faults_dropped": N` of run's JSON, from the launch's fault
 * records (docs/analyze-json.md) */
void fault_json(FILE *o, const RunStats *st);

/* diagcap.c: a command's diagnostics as data (check's JSON, SARIF on input errors).
 * Between begin and end, diag_at prints into memory (no colour); end echoes the text to `echo`
 * and reads each "file:line:col: level: message" back. */
typedef struct Diag {
  int level;        /* DiagLevel */
  const char *file; /* NULL: no location ("carve: error: ...") */
  int line, col;
  const char *msg;
  int related; /* a note: the index of the error it belongs to, -1 */
} Diag;
typedef struct DiagCapture {
  FILE *mem, *saved_out;
  bool saved_color;
  char *buf;
  size_t len;
  Diag *d;
  int n;
} DiagCapture;
void diag_capture_begin(DiagCapture *c);
void diag_capture_end(DiagCapture *c, FILE *echo);
void diag_capture_free(DiagCapture *c);
int diag_count(const DiagCapture *c, int level);
/* a JSON array of the diagnostics, each with its notes */
void diag_json(FILE *o, const DiagCapture *c);
/* a SARIF 2.1.0 log for a run that could not start: the errors as toolExecutionNotifications */
void sarif_input_error(FILE *o, const char *file, const DiagCapture *c);

/* svg.c: plots drawn into inline SVG; a Plot maps data coordinates (linear or log) into its
 * pixel area. Styles are CSS classes (html.c). */
typedef struct Plot {
  Buf *b;
  double x, y, w, h;     /* the plot area in the SVG, pixels */
  double x0, x1, y0, y1; /* the data range */
  bool logx, logy;
} Plot;
void html_escape(Buf *b, const char *s);
void svg_begin(Buf *b, int w, int h, const char *title);
void svg_end(Buf *b);
void svg_text(Buf *b, double x, double y, const char *anchor, const char *cls, const char *text);
void svg_rect(Buf *b, double x, double y, double w, double h, const char *cls, const char *tip);
double plot_px(const Plot *p, double x);
double plot_py(const Plot *p, double y);
void plot_axes(Plot *p, const char *xlabel, const char *ylabel);
void plot_line(Plot *p, const double *xs, const double *ys, int n, const char *cls,
               const char *tip);
void plot_point(Plot *p, double x, double y, const char *cls, const char *label);

/* html.c: `carve report`, one self-contained HTML page (inline CSS and SVG, no script) */
struct Plan;
typedef struct HtmlInput {
  const char *file;        /* as given */
  Analysis *a;             /* the analysis: its launch, program and machine */
  const ReportCost *rc;    /* the estimate (rc->ok false: no costs) */
  const struct Plan *plan; /* the optimizer's plan, NULL: none (plan_note says why) */
  const char *plan_note;
  const char *before, *after; /* the kernel printed before and after the plan */
  const char *bench_json;     /* `carve bench --format json` output, NULL: none */
  const char *bench_path;
  const char *tune_jsonl; /* `carve tune --results` JSON lines, NULL: none */
  const char *tune_path;
} HtmlInput;
void report_html(Buf *out, const HtmlInput *in);
/* the estimated time per source line of the kernel's file: each limit's time spread over the
 * lines by their share of its work, weighted by the limit's part in the combined estimate */
void report_line_times(const Analysis *a, const ReportCost *rc, double *t, int nlines);

/* counters.c: every counter carve predicts beside Nsight Compute's measurement (bench --ncu) */
enum {
  CT_LD_SPR,
  CT_ST_SPR,
  CT_SH_LD_WPI,
  CT_SH_ST_WPI,
  CT_TPI,
  CT_WARP_INS,
  CT_DRAM,
  CT_L2,
  CT_OCC,
  CT_TIME,
  CT_N
};
typedef struct CounterPrediction {
  double v[CT_N];
  bool have[CT_N];
  struct AccessPrediction {
    const char *array, *kind;
    int line, col;
    double sectors_per_request;
  } access[32];
  int naccess;
} CounterPrediction;
typedef struct CounterCheck {
  const char *name, *ncu, *why;
  double predicted, measured, error, tolerance; /* error: predicted / measured - 1 */
  bool have_predicted, have_measured, flagged;  /* flagged: |error| > tolerance */
} CounterCheck;
const char *counter_name(int c);
/* value of metric `name` in ncu's --csv output, units normalised (ns, bytes) */
bool ncu_csv_metric(const char *csv, const char *name, double *v);
void counters_measured(const char *csv, double v[CT_N], bool have[CT_N]);
/* the analyzer's and the model's figures for launch L (which it runs: give it fresh inputs);
 * regs 0: occupancy without registers. 0 ok, 2 nothing could be predicted. Prints nothing. */
int counters_predict(Launch *L, const Machine *m, const Ceilings *ce, int regs,
                     CounterPrediction *p);
/* the achieved occupancy (%) ncu's sm__warps_active.avg.pct_of_peak_sustained_active measures:
 * warps per active cycle of an SM with work, so the theoretical occupancy oc when the grid fills
 * every SM to it, else the warps its blocks supply, spread over the m->sm_count SMs (an SM with
 * any work holds at least one block) */
double counters_achieved_occupancy(const Machine *m, Occupancy oc, int64_t blocks,
                                   int warps_per_block);
/* returns how many are flagged */
int counters_compare(const CounterPrediction *p, const double meas[CT_N], const bool have[CT_N],
                     CounterCheck out[CT_N]);
/* text: a table; json: `, "compare": [...], "predicted_accesses": [...]` inside bench's object */
void counters_print(const CounterCheck *k, const CounterPrediction *p, bool json, FILE *o);

/* seconds as "12.3 us", "1.2 ms" (arena) */
char *seconds_text(double s);
/* s as a JSON string literal (NULL as "") */
void json_string(FILE *out, const char *s);

void estimate_print_text(const EstimateResult *r, FILE *out);
void estimate_print_json(const EstimateResult *r, FILE *out);
/* the ranking of `carve estimate --rank`, and why each variant is slower than the fastest */
void ranking_print_text(const Ranking *rk, FILE *out);
void ranking_print_json(const Ranking *rk, FILE *out);
#endif
