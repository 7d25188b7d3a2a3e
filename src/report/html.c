/* html: `carve report`, what a person looks at: one self-contained page (inline CSS and SVG,
 * no script, no network) with the estimate's bottleneck breakdown, a roofline, the findings
 * ranked by what they cost, the source with per-line annotations and a heat bar of estimated
 * time, the optimizer's plan as a before/after diff, and predicted against measured figures
 * from a `carve bench --format json` file. Everything comes from the structs the text and JSON
 * emitters print: Analysis, ReportCost (the Estimate), Findings, Plan. */
#include "../json.h"
#include "report.h"
#include "../opt/opt.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char CSS[] =
  "body{font:14px/1.4 system-ui,sans-serif;margin:0 auto;max-width:1200px;padding:0 16px;color:#1d232a;background:#fff}"
  "h1{font-size:22px;margin:18px 0 4px}h2{font-size:17px;margin:26px 0 8px;border-bottom:1px solid #d6dbe0}"
  ".sub{color:#5b6670}.kpi{display:inline-block;margin:6px 18px 6px 0}.kpi b{display:block;font-size:20px}"
  "table{border-collapse:collapse;width:100%}td,th{padding:3px 6px;text-align:left;vertical-align:top;border-bottom:1px solid #eef0f2}"
  "th{font-weight:600;background:#f6f8fa}.num{text-align:right;font-variant-numeric:tabular-nums}"
  ".warning{color:#9a3b00}.note{color:#2b5f8a}.error{color:#b00020}"
  ".src{font:12px/1.45 ui-monospace,monospace;width:100%}.src td{border:0;padding:0 6px;white-space:pre}"
  ".src .ln{color:#8a949e;text-align:right;user-select:none}.src .ann{color:#5b6670;white-space:normal;font-family:system-ui,sans-serif;font-size:11px}"
  ".src tr.hot{background:#fff4e5}.heat{width:90px}"
  ".diff{font:12px/1.45 ui-monospace,monospace;white-space:pre;border:1px solid #d6dbe0;padding:6px;overflow-x:auto}"
  ".diff .add{background:#e6ffec;display:block}.diff .del{background:#ffebe9;display:block}.diff .same{display:block;color:#5b6670}"
  "svg text{font:11px system-ui,sans-serif;fill:#1d232a}svg .tick{fill:#5b6670}svg .axis{font-size:12px}svg .label{font-size:11px}"
  "svg .frame{fill:none;stroke:#8a949e}svg .grid{stroke:#eef0f2}svg .ceiling{fill:none;stroke:#2b5f8a;stroke-width:2}"
  "svg .ceiling2{fill:none;stroke:#7aa6c8;stroke-width:1.5;stroke-dasharray:5 3}svg .kernel{fill:#d9480f}svg .measured{fill:#2f9e44}"
  "svg .bar{fill:#7aa6c8}svg .bar.top{fill:#d9480f}svg .heatbar{fill:#f08c00}svg .heatbg{fill:#f1f3f5}svg .ideal{fill:none;stroke:#8a949e;stroke-dasharray:4 3}"
  "svg .flag{fill:#b00020}svg .ok{fill:#2f9e44}svg .front{fill:#d9480f}svg .carved{fill:#adb5bd}svg .best{fill:#2f9e44}";

static void h(Buf *b, const char *s) { html_escape(b, s); }

/* ---- the estimated time per line ---- */
static void spread(double *t, int nlines, const double *work, int nwork, double total,
                   double weight) {
  if (total <= 0 || weight <= 0) return;
  for (int l = 0; l < nwork && l < nlines; l++) t[l] += weight * work[l] / total;
}

void report_line_times(const Analysis *a, const ReportCost *rc, double *t, int nlines) {
  for (int i = 0; i < nlines; i++) t[i] = 0;
  if (!rc || !rc->ok) return;
  const Estimate *e = &rc->e;
  /* each limit's part in the combined estimate: its cube's share of the 3-norm */
  double cubes = 0, own = e->total - e->t[B_LAUNCH];
  for (int b = 0; b < B_LAUNCH; b++) cubes += pow(e->t[b], 3);
  if (cubes <= 0 || own <= 0) return;
  double *sect = xmalloc(sizeof(double) * (size_t)(nlines + 1)),
         *l1 = xmalloc(sizeof(double) * (size_t)(nlines + 1));
  double *atom = xmalloc(sizeof(double) * (size_t)(nlines + 1));
  double ts = 0, tl = 0, ta = 0, stalls = 0;
  for (int i = 0; i < nlines; i++) sect[i] = l1[i] = atom[i] = 0;
  for (int i = 0; i < a->nacc; i++) {
    const AccessStat *s = &a->acc[i];
    SrcLoc loc = tok_loc(s->node->tok);
    if (loc.file != rc->file || loc.line <= 0 || loc.line >= nlines) continue;
    double sec = s->space == SPACE_GLOBAL ? (double)s->sectors : 0;
    double l1u = s->space == SPACE_GLOBAL ? (double)(s->lines ? s->lines : s->requests)
                                          : (double)s->wavefronts;
    double at = s->kind == ACC_ATOMIC && s->space == SPACE_GLOBAL ? (double)s->requests : 0;
    sect[loc.line] += sec;
    ts += sec;
    l1[loc.line] += l1u;
    tl += l1u;
    atom[loc.line] += at;
    ta += at;
  }
  for (int i = 0; i < rc->nlines; i++) stalls += rc->line_stalls[i];
  double w[B_N];
  for (int b = 0; b < B_N; b++) w[b] = b == B_LAUNCH ? 0 : own * pow(e->t[b], 3) / cubes;
  spread(t, nlines, rc->line_ins, rc->nlines, rc->line_ins_total, w[B_ISSUE] + w[B_SFU]);
  spread(t, nlines, rc->line_stalls, rc->nlines, stalls, w[B_LATENCY]);
  spread(t, nlines, sect, nlines, ts, w[B_DRAM] + w[B_L2]);
  spread(t, nlines, l1, nlines, tl, w[B_L1]);
  spread(t, nlines, atom, nlines, ta, w[B_ATOMIC]);
  free(sect);
  free(l1);
  free(atom);
}

/* ---- sections ---- */
static void summary(Buf *b, const HtmlInput *in, double measured_ms) {
  Analysis *a = in->a;
  Launch *L = a->L;
  buf_puts(b, "<h1>");
  h(b, L->kernel->name);
  buf_puts(b, " <span class=\"sub\">in ");
  h(b, in->file);
  buf_puts(b, "</span></h1>\n<p class=\"sub\">");
  h(b,
    fmt(
      "grid (%lld,%lld,%lld), block (%lld,%lld,%lld) on %s: the interpreter ran %llu of %lld blocks%s, %d of %d warps in each.",
      (long long)L->grid[0], (long long)L->grid[1], (long long)L->grid[2], (long long)L->block[0],
      (long long)L->block[1], (long long)L->block[2], a->m->long_name,
      (unsigned long long)a->blocks_run, (long long)a->blocks_total, a->sampled ? " (sampled)" : "",
      a->warps_run_per_block, a->warps_per_block));
  buf_puts(b, "</p>\n<div>");
  if (in->rc->ok) {
    const Estimate *e = &in->rc->e;
    buf_printf(b, "<span class=\"kpi\">estimated time<b>%s</b></span>", seconds_text(e->total));
    buf_puts(b, "<span class=\"kpi\">bound by<b>");
    h(b, bottleneck_name(e->bottleneck));
    buf_puts(b, "</b></span>");
  }
  if (measured_ms > 0) {
    buf_printf(b, "<span class=\"kpi\">measured (median)<b>%s</b></span>",
               seconds_text(measured_ms * 1e-3));
    if (in->rc->ok)
      buf_printf(b, "<span class=\"kpi\">estimate error<b>%+.0f%%</b></span>",
                 100 * (in->rc->e.total / (measured_ms * 1e-3) - 1));
  }
  buf_puts(b, "</div>\n");
}

static void breakdown(Buf *b, const HtmlInput *in) {
  buf_puts(b, "<h2 id=\"breakdown\">Where the time goes: the estimate's limits</h2>\n");
  if (!in->rc->ok) {
    buf_puts(
      b, "<p>The estimate could not run for this launch (see <code>carve estimate</code>).</p>\n");
    return;
  }
  const Estimate *e = &in->rc->e;
  double top = 0;
  for (int k = 0; k < B_N; k++)
    if (e->t[k] > top) top = e->t[k];
  int H = 26 * B_N + 40;
  svg_begin(b, 760, H, "the time each limit would take, the bottleneck highlighted");
  for (int k = 0; k < B_N; k++) {
    double y = 10 + 26 * k, w = top > 0 ? 330 * e->t[k] / top : 0;
    svg_text(b, 340, y + 15, "end", "label", bottleneck_name(k));
    svg_rect(b, 348, y, w, 18, k == e->bottleneck ? "bar top" : "bar",
             fmt("%s: %s", bottleneck_name(k), seconds_text(e->t[k])));
    svg_text(b, 352 + w, y + 14, "start", "tick", e->t[k] > 0 ? seconds_text(e->t[k]) : "0");
  }
  svg_text(b, 348, H - 6, "start", "tick",
           fmt("combined (3-norm of the limits plus the launch): %s", seconds_text(e->total)));
  svg_end(b);
  if (e->nhot) {
    buf_puts(b, "<p>The bottleneck's work comes from: ");
    for (int i = 0; i < e->nhot; i++) {
      const struct Hotspot *hs = &e->hot[i];
      buf_printf(b, "%s<a href=\"#L%d\">line %d</a>", i ? ", " : "", hs->line, hs->line);
      if (hs->what) {
        buf_puts(b, " (");
        h(b, hs->what);
        buf_puts(b, ")");
      }
      buf_printf(b, " %.0f%% of the %s", 100 * hs->share, hs->measure);
    }
    buf_puts(b, ".</p>\n");
  }
}

/* a kernel without FP32 work (a copy, a transpose) has no point on the roofline: its bandwidth
 * against the memory ceilings instead */
static void bandwidth_roof(Buf *b, const HtmlInput *in, const Ceilings *ce, double bytes,
                           double measured_ms) {
  const Estimate *e = &in->rc->e;
  struct {
    const char *what;
    double gbps;
    const char *cls;
  } r[4] = {{"DRAM ceiling", ce->dram_gbps, "bar"},
            {"L2 ceiling", ce->l2_gbps, "bar"},
            {"estimated", bytes / e->total / 1e9, "bar top"},
            {"measured", measured_ms > 0 ? bytes / (measured_ms * 1e-3) / 1e9 : 0, "bar"}};
  double top = 0;
  for (int i = 0; i < 4; i++)
    if (r[i].gbps > top) top = r[i].gbps;
  svg_begin(
    b, 760, 140,
    "the kernel's DRAM bandwidth against the memory ceilings (no FP32 work: no roofline point)");
  for (int i = 0; i < 4; i++) {
    if (r[i].gbps <= 0) continue;
    double y = 10 + 28 * i, w = 420 * r[i].gbps / top;
    svg_text(b, 250, y + 15, "end", "label", r[i].what);
    svg_rect(b, 258, y, w, 18, r[i].cls, fmt("%s: %.0f GB/s", r[i].what, r[i].gbps));
    svg_text(b, 262 + w, y + 14, "start", "tick", fmt("%.0f GB/s", r[i].gbps));
  }
  svg_end(b);
  buf_puts(b, "<p class=\"sub\">");
  h(b,
    fmt(
      "No FP32 work: the kernel's %.4g DRAM bytes (the estimate's) over its time, against the ceilings (%s).",
      bytes, ce->source));
  buf_puts(b, "</p>\n");
}

/* the roofline: FP32 and DRAM (and L2) ceilings from the machine description, the kernel's point */
static void roofline(Buf *b, const HtmlInput *in, double measured_ms) {
  buf_puts(b, "<h2 id=\"roofline\">Roofline</h2>\n");
  if (!in->rc->ok) {
    buf_puts(b, "<p>No estimate: no roofline.</p>\n");
    return;
  }
  const Estimate *e = &in->rc->e;
  Ceilings ce = ceilings_for(in->a->m, NULL);
  LaunchSpec *spec = find_spec(in->a->L->prog, in->a->L->kernel->name);
  bool declared = spec && spec->flops > 0;
  double flops = declared ? spec->flops : 2.0 * in->rc->fp32_per_thread * in->rc->threads;
  double bytes = e->dram_bytes > 0 ? e->dram_bytes : e->dram_min_bytes;
  if (bytes <= 0) {
    buf_puts(b, "<p>The kernel moves no DRAM bytes: no roofline point.</p>\n");
    return;
  }
  if (flops <= 0) {
    bandwidth_roof(b, in, &ce, bytes, measured_ms);
    return;
  }
  double ai = flops / bytes, perf = flops / e->total / 1e9;
  double ridge = ce.fp32_gflops / ce.dram_gbps;
  double x0 = fmin(ai, ridge) / 10, x1 = fmax(ai, ridge) * 10;
  x0 = pow(10, floor(log10(x0)));
  x1 = pow(10, ceil(log10(x1)));
  double y1 = pow(10, ceil(log10(ce.fp32_gflops * 1.5))),
         y0 = pow(10, floor(log10(fmin(perf, ce.dram_gbps * x0) / 2)));
  Buf *o = b;
  svg_begin(o, 760, 420,
            "roofline: attainable GFLOP/s against arithmetic intensity, with the kernel's point");
  Plot p = {o, 80, 20, 640, 330, x0, x1, y0, y1, true, true};
  plot_axes(&p, "arithmetic intensity (FLOP per DRAM byte)", "GFLOP/s");
  double xs[3] = {x0, ridge, x1}, ys[3] = {ce.dram_gbps * x0, ce.fp32_gflops, ce.fp32_gflops};
  plot_line(&p, xs, ys, 3, "ceiling",
            fmt("DRAM %.0f GB/s, FP32 %.0f GFLOP/s (%s)", ce.dram_gbps, ce.fp32_gflops, ce.source));
  if (ce.l2_gbps > 0) {
    double r2 = ce.fp32_gflops / ce.l2_gbps, x2[2] = {x0, r2},
           y2[2] = {ce.l2_gbps * x0, ce.fp32_gflops};
    if (r2 > x0) {
      plot_line(&p, x2, y2, 2, "ceiling2", fmt("L2 %.0f GB/s", ce.l2_gbps));
      svg_text(o, plot_px(&p, x0) + 6, plot_py(&p, ce.l2_gbps * x0) - 8, "start", "label",
               fmt("L2 %.0f GB/s", ce.l2_gbps));
    }
  }
  svg_text(o, plot_px(&p, x1) - 4, plot_py(&p, ce.fp32_gflops) - 6, "end", "label",
           fmt("FP32 %.0f GFLOP/s", ce.fp32_gflops));
  svg_text(o, plot_px(&p, x0) + 6, plot_py(&p, ce.dram_gbps * x0) - 8, "start", "label",
           fmt("DRAM %.0f GB/s", ce.dram_gbps));
  plot_point(&p, ai, perf, "kernel", fmt("estimated: %.3g GFLOP/s at %.3g FLOP/B", perf, ai));
  if (measured_ms > 0)
    plot_point(&p, ai, flops / (measured_ms * 1e-3) / 1e9, "measured",
               fmt("measured: %.3g GFLOP/s", flops / (measured_ms * 1e-3) / 1e9));
  svg_end(o);
  buf_puts(b, "<p class=\"sub\">");
  h(b, fmt("%s: %.4g FLOP (%s) over %.4g DRAM bytes (the estimate's). Ceilings: %s.",
           in->a->L->kernel->name, flops,
           declared ? "declared by #pragma carve work" : "counted FP32 instructions x 2", bytes,
           ce.source));
  buf_puts(b, "</p>\n");
}

static void findings_table(Buf *b, const HtmlInput *in, const Findings *fs) {
  static const char *lv[] = {"note", "note", "warning", "error"};
  buf_puts(b, "<h2 id=\"findings\">Findings, ranked by what they cost</h2>\n");
  if (!fs->n) {
    buf_puts(b, "<p>No findings.</p>\n");
    return;
  }
  buf_puts(
    b,
    "<table><tr><th>#</th><th>cost</th><th>level</th><th>where</th><th>finding</th><th>remedy</th></tr>\n");
  for (int i = 0; i < fs->n; i++) {
    const Finding *f = &fs->f[i];
    SrcLoc l = tok_loc(f->at->tok);
    buf_printf(b, "<tr><td class=\"num\">%d</td><td>", i + 1);
    if (f->share >= 0) {
      svg_begin(b, 110, 16, fmt("%.1f%% of the estimated kernel time", 100 * f->share));
      svg_rect(b, 0, 3, 60, 10, "heatbg", NULL);
      svg_rect(b, 0, 3, 60 * fmin(1, f->share), 10, "heatbar",
               fmt("saves about %s", seconds_text(f->saving_s)));
      svg_text(b, 64, 12, "start", "tick", fmt("%.1f%%", 100 * f->share));
      svg_end(b);
    } else buf_puts(b, "n/a");
    buf_printf(b, "</td><td class=\"%s\">%s</td><td><a href=\"#L%d\">%d:%d</a></td><td>[",
               lv[f->level], lv[f->level], l.line, l.line, l.col);
    h(b, f->category);
    buf_puts(b, "] ");
    h(b, f->msg);
    if (f->share >= 0) {
      buf_puts(b, " <span class=\"sub\">(");
      h(b,
        fmt("saves about %s at the %s", seconds_text(f->saving_s), f->limit ? f->limit : "limits"));
      buf_puts(b, ")</span>");
    }
    buf_puts(b, "</td><td>");
    h(b, f->remedy);
    buf_puts(b, "</td></tr>\n");
  }
  buf_puts(b, "</table>\n");
}

/* what the analysis measured on one line: accesses and branches */
static char *line_notes(const Analysis *a, SrcFile *file, int line) {
  char *s = "";
  for (int i = 0; i < a->nacc; i++) {
    const AccessStat *x = &a->acc[i];
    SrcLoc l = tok_loc(x->node->tok);
    if (l.file != file || l.line != line || !x->requests) continue;
    double per = x->space == SPACE_GLOBAL ? (double)x->sectors / (double)x->requests
                                          : (double)x->wavefronts / (double)x->requests;
    double ideal = x->space == SPACE_GLOBAL ? (double)x->ideal_sectors / (double)x->requests
                                            : (double)x->ideal / (double)x->requests;
    s = fmt("%s%s%s %s '%s': %.2f %s/request (ideal %.2f)", s, *s ? "; " : "",
            x->space == SPACE_GLOBAL ? "global" : "shared",
            x->kind == ACC_LOAD    ? "load"
            : x->kind == ACC_STORE ? "store"
                                   : "atomic",
            x->array, per,
            x->space == SPACE_GLOBAL
              ? (!a->m || a->m->mem_rule == MEMRULE_SECTOR32 ? "sectors" : "transactions")
              : "wavefronts",
            ideal);
  }
  for (int i = 0; i < a->nbr; i++) {
    const BranchStat *br = &a->br[i];
    SrcLoc l = tok_loc(br->node->tok);
    if (l.file != file || l.line != line || !br->evals) continue;
    s = fmt("%s%sbranch: diverges in %.0f%% of warp executions", s, *s ? "; " : "",
            100.0 * (double)br->divergent / (double)br->evals);
  }
  return s;
}

static void source(Buf *b, const HtmlInput *in, const Findings *fs) {
  Analysis *a = in->a;
  SrcFile *file = tok_loc(a->L->kernel->tok).file;
  buf_puts(
    b,
    "<h2 id=\"source\">Source, line by line</h2>\n<p class=\"sub\">The bar is the estimated time of the line (each limit's time "
    "spread over the lines by their share of its work); the notes are what the interpreter measured there.</p>\n");
  if (!file || !file->contents) return;
  int nlines = 1;
  for (const char *c = file->contents; *c; c++) nlines += *c == '\n';
  double *t = xmalloc(sizeof(double) * (size_t)(nlines + 2));
  report_line_times(a, in->rc, t, nlines + 1);
  double top = 0;
  for (int i = 0; i <= nlines; i++)
    if (t[i] > top) top = t[i];
  buf_puts(b, "<table class=\"src\">\n");
  const char *c = file->contents;
  for (int line = 1; *c || line == 1; line++) {
    const char *e = strchr(c, '\n');
    size_t n = e ? (size_t)(e - c) : strlen(c);
    bool hot = top > 0 && t[line] >= 0.2 * top;
    buf_printf(b, "<tr id=\"L%d\"%s><td class=\"heat\">", line, hot ? " class=\"hot\"" : "");
    if (t[line] >= 1e-3 * top && t[line] > 0) {
      svg_begin(b, 88, 12, fmt("line %d: about %s", line, seconds_text(t[line])));
      svg_rect(b, 0, 2, 60, 8, "heatbg", NULL);
      svg_rect(b, 0, 2, 60 * t[line] / top, 8, "heatbar", NULL);
      svg_end(b);
    }
    buf_printf(b, "</td><td class=\"ln\">%d</td><td>", line);
    char *text = arena_strndup(c, n);
    h(b, text);
    buf_puts(b, "</td><td class=\"ann\">");
    for (int i = 0; i < fs->n; i++)
      if (tok_loc(fs->f[i].at->tok).file == file && tok_loc(fs->f[i].at->tok).line == line) {
        buf_printf(b, "<span class=\"%s\">[", fs->f[i].level >= 2 ? "warning" : "note");
        h(b, fs->f[i].category);
        buf_puts(b, "]</span> ");
      }
    h(b, line_notes(a, file, line));
    if (t[line] >= 1e-3 * top && t[line] > 0) {
      buf_puts(b, " ");
      h(b, fmt("(%s)", seconds_text(t[line])));
    }
    buf_puts(b, "</td></tr>\n");
    if (!e) break;
    c = e + 1;
  }
  buf_puts(b, "</table>\n");
  free(t);
}

/* ---- the plan: steps and a line diff of the kernel before and after ---- */
static char **split_lines(const char *s, int *n) {
  *n = 0;
  if (!s) return NULL;
  int cap = 1;
  for (const char *c = s; *c; c++) cap += *c == '\n';
  char **v = arena_alloc(sizeof(char *) * (size_t)(cap + 1));
  for (const char *c = s; *c;) {
    const char *e = strchr(c, '\n');
    size_t len = e ? (size_t)(e - c) : strlen(c);
    v[(*n)++] = arena_strndup(c, len);
    if (!e) break;
    c = e + 1;
  }
  return v;
}

enum { DIFF_MAX_LINES = 3000 };
static void diff(Buf *b, const char *before, const char *after) {
  int n, m;
  char **x = split_lines(before, &n), **y = split_lines(after, &m);
  if ((size_t)n * (size_t)m > (size_t)DIFF_MAX_LINES * DIFF_MAX_LINES / 4) {
    buf_puts(b, "<p>The sources are too long to compare here.</p>\n");
    return;
  }
  /* the longest common subsequence of lines, by dynamic programming from the ends */
  int *L = xmalloc(sizeof(int) * (size_t)(n + 1) * (size_t)(m + 1));
#define AT(i, j) L[(size_t)(i) * (size_t)(m + 1) + (size_t)(j)]
  for (int i = n; i >= 0; i--)
    for (int j = m; j >= 0; j--)
      AT(i, j) = i == n || j == m              ? 0
                 : !strcmp(x[i], y[j])         ? AT(i + 1, j + 1) + 1
                 : AT(i + 1, j) > AT(i, j + 1) ? AT(i + 1, j)
                                               : AT(i, j + 1);
  buf_puts(b, "<div class=\"diff\">");
  int i = 0, j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && !strcmp(x[i], y[j])) {
      buf_puts(b, "<span class=\"same\">  ");
      h(b, x[i]);
      buf_puts(b, "</span>");
      i++;
      j++;
    } else if (j < m && (i == n || AT(i, j + 1) >= AT(i + 1, j))) {
      buf_puts(b, "<span class=\"add\">+ ");
      h(b, y[j]);
      buf_puts(b, "</span>");
      j++;
    } else {
      buf_puts(b, "<span class=\"del\">- ");
      h(b, x[i]);
      buf_puts(b, "</span>");
      i++;
    }
  }
#undef AT
  buf_puts(b, "</div>\n");
  free(L);
}

static void plan_section(Buf *b, const HtmlInput *in) {
  buf_puts(b, "<h2 id=\"plan\">What carve did about it: the optimizer's plan</h2>\n");
  const Plan *pl = in->plan;
  if (!pl) {
    buf_puts(b, "<p>");
    h(b, in->plan_note ? in->plan_note : "No plan.");
    buf_puts(b, "</p>\n");
    return;
  }
  buf_puts(
    b,
    "<table><tr><th>pass</th><th>outcome</th><th class=\"num\">estimate before</th><th class=\"num\">after</th><th>why / what it did</th></tr>\n");
  int kept = 0;
  for (int i = 0; i < pl->nsteps; i++) {
    const PlanStep *s = &pl->steps[i];
    const char *outcome = s->rejected       ? "rejected by verification"
                          : s->unprofitable ? "verified, slower by the estimate: not kept"
                          : s->applied ? (s->verified ? "kept, verified" : "kept (not verified)")
                          : s->legality == LEGAL   ? "legal, not applied"
                          : s->legality == ILLEGAL ? "illegal"
                                                   : "not applicable";
    kept += plan_step_kept(s);
    buf_puts(b, "<tr><td>");
    h(b, s->pass ? s->pass->name : "?");
    buf_puts(b, "</td><td>");
    h(b, outcome);
    buf_printf(b, "</td><td class=\"num\">%s</td><td class=\"num\">%s</td><td>",
               s->est_before_ms >= 0 ? seconds_text(s->est_before_ms * 1e-3) : "-",
               s->est_after_ms >= 0 ? seconds_text(s->est_after_ms * 1e-3) : "-");
    h(b, s->did[0] ? s->did : s->why);
    buf_puts(b, "</td></tr>\n");
  }
  buf_puts(b, "</table>\n");
  if (!kept || !in->before || !in->after) {
    buf_puts(b, "<p>No step was kept: the kernel is unchanged.</p>\n");
    return;
  }
  buf_puts(b, "<p>The kernel before and after the kept steps (as carve prints them):</p>\n");
  diff(b, in->before, in->after);
}

/* ---- predicted against measured: the bench file's time and its counter comparison ---- */
static void measured_section(Buf *b, const HtmlInput *in, double measured_ms) {
  buf_puts(b, "<h2 id=\"measured\">Predicted against measured</h2>\n");
  if (!in->bench_json) {
    buf_puts(
      b,
      "<p>No measurement given: run <code>carve bench FILE.cu --ncu --format json &gt; bench.json</code> on the GPU and "
      "<code>carve report FILE.cu bench.json</code>.</p>\n");
    return;
  }
  buf_puts(b, "<p>From <code>");
  h(b, in->bench_path);
  buf_puts(b, "</code>");
  if (measured_ms > 0 && in->rc->ok)
    buf_printf(b, ": measured %s (median), estimated %s.", seconds_text(measured_ms * 1e-3),
               seconds_text(in->rc->e.total));
  buf_puts(b, "</p>\n");
  /* bench --ncu's comparison: {"counter": ..., "predicted": ..., "measured": ..., "flagged":
   * ...} */
  int n = 0;
  const char *names[64];
  double pr[64], me[64];
  bool fl[64];
  char why[160];
  Json *bj = json_parse(in->bench_json, strlen(in->bench_json), why, sizeof why);
  const Json *cmp = json_get(bj, "compare");
  for (int i = 0; cmp && cmp->kind == JSON_ARRAY && i < cmp->n && n < 64; i++) {
    const Json *c = &cmp->kids[i];
    const char *name = json_get_string(c, "counter");
    double p, m;
    if (!name || !json_get_number(c, "predicted", &p) || !json_get_number(c, "measured", &m))
      continue;
    names[n] = arena_strdup(name);
    pr[n] = p;
    me[n] = m;
    const Json *f = json_get(c, "flagged");
    fl[n] = f && f->kind == JSON_TRUE;
    n++;
  }
  json_free(bj);
  if (!n) {
    buf_puts(b, "<p>The file has no counter comparison (bench without --ncu).</p>\n");
    return;
  }
  double lo = 1e300, hi = 0;
  for (int i = 0; i < n; i++) {
    if (pr[i] > 0) {
      lo = fmin(lo, pr[i]);
      hi = fmax(hi, pr[i]);
    }
    if (me[i] > 0) {
      lo = fmin(lo, me[i]);
      hi = fmax(hi, me[i]);
    }
  }
  if (hi > 0) {
    lo = pow(10, floor(log10(lo)));
    hi = pow(10, ceil(log10(hi)));
    svg_begin(
      b, 760, 420,
      "each counter carve predicts against its measurement; flagged ones beyond the tolerance in red");
    Plot p = {b, 80, 20, 640, 330, lo, hi, lo, hi, true, true};
    plot_axes(&p, "measured (ncu)", "predicted (carve)");
    double d[2] = {lo, hi};
    plot_line(&p, d, d, 2, "ideal", "predicted = measured");
    for (int i = 0; i < n; i++)
      if (pr[i] > 0 && me[i] > 0) plot_point(&p, me[i], pr[i], fl[i] ? "flag" : "ok", names[i]);
    svg_end(b);
  }
  buf_puts(
    b,
    "<table><tr><th>counter</th><th class=\"num\">predicted</th><th class=\"num\">measured</th><th class=\"num\">error</th><th></th></tr>\n");
  for (int i = 0; i < n; i++) {
    buf_puts(b, "<tr><td>");
    h(b, names[i]);
    buf_printf(
      b,
      "</td><td class=\"num\">%.4g</td><td class=\"num\">%.4g</td><td class=\"num\">%s</td><td class=\"%s\">%s</td></tr>\n",
      pr[i], me[i], me[i] != 0 ? fmt("%+.0f%%", 100 * (pr[i] / me[i] - 1)) : "-",
      fl[i] ? "error" : "note", fl[i] ? "beyond tolerance" : "within");
  }
  buf_puts(b, "</table>\n");
}

/* the value of "key": "..." in one JSON line, into out (false when absent) */
static bool line_string(const char *line, const char *end, const char *key, char *out, size_t len) {
  char pat[64];
  snprintf(pat, sizeof pat, "\"%s\": \"", key);
  const char *p = strstr(line, pat);
  if (!p || p >= end) return false;
  p += strlen(pat);
  size_t n = 0;
  while (p < end && *p != '"' && n + 1 < len) out[n++] = *p++;
  out[n] = 0;
  return true;
}

typedef struct {
  char key[160];
  double eff, util, est_ms, ms;
  bool front;
} TunePoint;

/* the tuning space of `carve tune`'s results: every valid variant at its Efficiency (Ryoo's eq.
 * 5.1) and Utilization (eq. 5.2), the Pareto front carving keeps (tie-keeping: not dominated in
 * both), and the measured time of those the tune timed */
static void tune_section(Buf *b, const HtmlInput *in) {
  buf_puts(b, "<h2 id=\"tune\">Tuning space</h2>\n");
  if (!in->tune_jsonl) {
    buf_puts(b,
             "<p>No tuning results given: <code>carve tune FILE.cu --results r.jsonl</code>, then "
             "<code>carve report FILE.cu r.jsonl</code>.</p>\n");
    return;
  }
  enum { MAXP = 4096 };
  TunePoint *pt = xmalloc(sizeof(TunePoint) * MAXP);
  int n = 0, lines = 0;
  for (const char *l = in->tune_jsonl; *l && n < MAXP;) {
    const char *e = strchr(l, '\n');
    if (!e) e = l + strlen(l);
    char *line = arena_strndup(l, (size_t)(e - l));
    char type[16], status[16], key[160];
    lines++;
    if (line_string(line, line + strlen(line), "type", type, sizeof type) &&
        line_string(line, line + strlen(line), "status", status, sizeof status) &&
        line_string(line, line + strlen(line), "key", key, sizeof key) && !strcmp(status, "ok")) {
      int k = 0;
      while (k < n && strcmp(pt[k].key, key)) k++;
      if (k == n) {
        memset(&pt[n], 0, sizeof pt[n]);
        snprintf(pt[n].key, sizeof pt[n].key, "%s", key);
        pt[n].ms = -1;
        n++;
      }
      if (!strcmp(type, "static")) {
        json_number(line, "efficiency", &pt[k].eff);
        json_number(line, "utilization", &pt[k].util);
        json_number(line, "est_ms", &pt[k].est_ms);
      } else if (!strcmp(type, "time")) json_number(line, "median_ms", &pt[k].ms);
    }
    l = *e ? e + 1 : e;
  }
  int valid = 0, timed = 0, best = -1, nfront = 0;
  double x0 = 1e300, x1 = 0, y0 = 1e300, y1 = 0;
  for (int i = 0; i < n; i++) {
    if (!(pt[i].eff > 0 && pt[i].util > 0)) continue;
    valid++;
    x0 = fmin(x0, pt[i].eff);
    x1 = fmax(x1, pt[i].eff);
    y0 = fmin(y0, pt[i].util);
    y1 = fmax(y1, pt[i].util);
    pt[i].front = true;
    for (int j = 0; j < n && pt[i].front; j++)
      if (j != i && pt[j].eff > 0 && pt[j].util > 0 && pt[j].eff >= pt[i].eff &&
          pt[j].util >= pt[i].util && (pt[j].eff > pt[i].eff || pt[j].util > pt[i].util))
        pt[i].front = false;
    nfront += pt[i].front;
    if (pt[i].ms > 0) {
      timed++;
      if (best < 0 || pt[i].ms < pt[best].ms) best = i;
    }
  }
  buf_puts(b, "<p>From <code>");
  h(b, in->tune_path);
  buf_printf(
    b,
    "</code>: %d records; %d valid configurations with static metrics (configurations of one source counted each), %d of them on "
    "the Pareto front of Efficiency and Utilization (carving keeps the front of those left by its memory threshold), %d timed.</p>\n",
    lines, valid, nfront, timed);
  if (valid) {
    x0 = pow(10, floor(log10(x0)));
    x1 = pow(10, ceil(log10(x1)));
    y0 = pow(10, floor(log10(y0)));
    y1 = pow(10, ceil(log10(y1)));
    if (x1 <= x0) x1 = x0 * 10;
    if (y1 <= y0) y1 = y0 * 10;
    svg_begin(
      b, 760, 420,
      "the tuning space: each valid variant's Efficiency against its Utilization; orange: the Pareto front, grey: carved away, green: the fastest measured");
    Plot p = {b, 80, 20, 640, 330, x0, x1, y0, y1, true, true};
    plot_axes(&p, "Efficiency (eq. 5.1)", "Utilization (eq. 5.2)");
    for (int i = 0; i < n; i++) {
      if (!(pt[i].eff > 0 && pt[i].util > 0) || i == best) continue;
      plot_point(&p, pt[i].eff, pt[i].util, pt[i].front ? "front" : "carved", NULL);
    }
    if (best >= 0)
      plot_point(&p, pt[best].eff, pt[best].util, "best", fmt("fastest: %.4f ms", pt[best].ms));
    svg_end(b);
  }
  /* the timed variants, fastest first */
  int *order = xmalloc(sizeof(int) * (size_t)(n + 1)), no = 0;
  for (int i = 0; i < n; i++)
    if (pt[i].ms > 0) order[no++] = i;
  for (int i = 1; i < no; i++)
    for (int j = i; j > 0 && pt[order[j]].ms < pt[order[j - 1]].ms; j--) {
      int t = order[j];
      order[j] = order[j - 1];
      order[j - 1] = t;
    }
  if (no) {
    buf_puts(
      b,
      "<table><tr><th>variant</th><th class=\"num\">measured</th><th class=\"num\">estimated</th><th>front</th></tr>\n");
    for (int i = 0; i < no && i < 12; i++) {
      TunePoint *q = &pt[order[i]];
      buf_puts(b, "<tr><td>");
      h(b, q->key);
      buf_printf(b,
                 "</td><td class=\"num\">%.4f ms</td><td class=\"num\">%s</td><td>%s</td></tr>\n",
                 q->ms, q->est_ms > 0 ? fmt("%.4f ms", q->est_ms) : "-", q->front ? "yes" : "no");
    }
    buf_puts(b, "</table>\n");
  }
  free(order);
  free(pt);
}

void report_html(Buf *b, const HtmlInput *in) {
  double measured_ms = 0;
  if (in->bench_json) json_number(in->bench_json, "median_ms", &measured_ms);
  Findings fs = findings_collect(in->a, in->rc);
  buf_puts(
    b, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"/><title>carve report: ");
  h(b, in->a->L->kernel->name);
  buf_printf(b, "</title>\n<style>%s</style></head>\n<body>\n", CSS);
  summary(b, in, measured_ms);
  buf_puts(
    b,
    "<p class=\"sub\"><a href=\"#breakdown\">limits</a> · <a href=\"#roofline\">roofline</a> · <a href=\"#findings\">findings</a> · "
    "<a href=\"#source\">source</a> · <a href=\"#plan\">plan</a> · <a href=\"#measured\">measured</a> · <a href=\"#tune\">tuning space</a></p>\n");
  breakdown(b, in);
  roofline(b, in, measured_ms);
  findings_table(b, in, &fs);
  source(b, in, &fs);
  plan_section(b, in);
  measured_section(b, in, measured_ms);
  tune_section(b, in);
  buf_printf(
    b,
    "<p class=\"sub\">carve %s. Figures: docs/analyze-json.md, docs/estimate-json.md; costs are the model's (docs/validation.md).</p>\n",
    CARVE_VERSION);
  buf_puts(b, "</body></html>\n");
  findings_free(&fs);
}
