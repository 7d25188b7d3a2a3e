/* report: an analysis as findings (location, cost, remedy) in text (gcc style, caret lines),
 * JSON (docs/analyze-json.md) or SARIF 2.1.0 for code-scanning tools. */
#include "report.h"
#include "../model/model.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ---- what findings cost ---- */
double report_overlap_total(const double t[B_N]) {
  /* estimate_time (metrics.c): the limits' OVERLAP_NORM-norm (3) plus the launch overhead */
  double top = 0, sum = 0;
  for (int b = 0; b < B_LAUNCH; b++) if (t[b] > top) top = t[b];
  for (int b = 0; b < B_LAUNCH; b++) if (top > 0) sum += pow(t[b] / top, 3.0);
  return (top > 0 ? top * pow(sum, 1.0 / 3.0) : 0) + t[B_LAUNCH];
}

typedef struct { Analysis *a; ReportCost *rc; } CostWork;
static void cost_work(void *ud) {
  CostWork *w = ud;
  Analysis *a = w->a;
  Launch *L = a->L;
  Counts cn;
  /* the counting run repeats blocks the analysis ran: its diagnostics were printed there */
  int errors = diag_errors, warnings = diag_warnings;
  bool quiet = diag_quiet;
  diag_quiet = true;
  int rc = count_instructions(L, &cn, 2);
  diag_quiet = quiet;
  diag_errors = errors;
  diag_warnings = warnings;
  if (rc == 0) {
    int threads = (int)(L->block[0] * L->block[1] * L->block[2]);
    Occupancy oc = occupancy(a->m, threads, 0, (int)(kernel_static_shared(L->kernel) + L->dyn_shared));
    w->rc->e = estimate_time(L, a->m, &cn, a, oc, ceilings_for(a->m, NULL));
    w->rc->nlines = cn.nlines;
    w->rc->file = cn.file;
    w->rc->line_ins = xmalloc(sizeof(double) * (size_t)(cn.nlines + 1));
    w->rc->line_stalls = xmalloc(sizeof(double) * (size_t)(cn.nlines + 1));
    for (int i = 0; i < cn.nlines; i++) {
      w->rc->line_ins[i] = cn.line_ins[i];
      w->rc->line_stalls[i] = cn.line_stalls[i];
      w->rc->line_ins_total += cn.line_ins[i];
    }
    w->rc->fp32_per_thread = cn.threads_sampled > 0 ? cn.lanes[CL_FP32] / cn.threads_sampled : 0;
    w->rc->threads = w->rc->e.threads;
    w->rc->ok = w->rc->e.total > 0;
  }
  counts_free(&cn);
}

int report_cost_compute(Analysis *a, ReportCost *rc) {
  memset(rc, 0, sizeof *rc);
  if (!a->m || !a->L || a->fault) return 2;
  CostWork w = {a, rc};
  /* an error inside (a limit, memory) costs the figures, not the report */
  if (!carve_pcall(cost_work, &w)) { report_cost_free(rc); return 2; }
  return rc->ok ? 0 : 2;
}

void report_cost_free(ReportCost *rc) {
  free(rc->line_ins);
  free(rc->line_stalls);
  memset(rc, 0, sizeof *rc);
}

/* the saving of taking dt off the limits, and the limit that gives most of it */
static double saving(const ReportCost *rc, const double dt[B_N], const char **limit) {
  double t[B_N];
  int most = -1;
  for (int b = 0; b < B_N; b++) {
    t[b] = rc->e.t[b] - dt[b];
    if (t[b] < 0) t[b] = 0;
    if (dt[b] > 0 && (most < 0 || dt[b] > dt[most])) most = b;
  }
  if (limit) *limit = most >= 0 ? bottleneck_name(most) : NULL;
  double s = report_overlap_total(rc->e.t) - report_overlap_total(t);
  return s > 0 ? s : 0;
}

/* the analyzer's units behind the estimate's memory limits, summed over the accesses */
static void traffic_totals(const Analysis *a, double *sectors, double *l1) {
  *sectors = *l1 = 0;
  for (int i = 0; i < a->nacc; i++) {
    const AccessStat *s = &a->acc[i];
    if (s->space == SPACE_GLOBAL) { *sectors += (double)s->sectors; *l1 += (double)(s->lines ? s->lines : s->requests); }
    else *l1 += (double)s->wavefronts;
  }
}

/* excess global sectors and L1 lines of an access, as limit times */
static void excess_global(const ReportCost *rc, const Analysis *a, double sectors, double lines, double dt[B_N]) {
  double tot_sec, tot_l1;
  traffic_totals(a, &tot_sec, &tot_l1);
  const Estimate *e = &rc->e;
  if (tot_sec > 0) {
    dt[B_L2] += e->t[B_L2] * sectors / tot_sec;
    /* DRAM beyond the footprint (a footprint larger than L2, partial writes) scales with traffic */
    double over = e->dram_bytes > 0 ? 1.0 - e->dram_min_bytes / e->dram_bytes : 0;
    if (over > 0) dt[B_DRAM] += e->t[B_DRAM] * over * sectors / tot_sec;
  }
  if (tot_l1 > 0) dt[B_L1] += e->t[B_L1] * lines / tot_l1;
}

typedef struct { const ReportCost *rc; double dt[B_N]; } Cost;

static void add_costed(Findings *fs, int level, const char *cat, Node *at, char *msg, char *remedy, const Cost *c) {
  fs->f = xrealloc(fs->f, sizeof(Finding) * (size_t)(fs->n + 1));
  Finding f = {level, cat, at, msg, remedy, -1, -1, NULL};
  if (c && c->rc && c->rc->ok) {
    f.saving_s = saving(c->rc, c->dt, &f.limit);
    /* of the kernel's own time: the launch overhead is paid whatever the kernel does */
    double own = c->rc->e.total - c->rc->e.t[B_LAUNCH];
    f.share = own > 0 ? f.saving_s / own : 0;
  }
  fs->f[fs->n++] = f;
}

static void add(Findings *fs, int level, const char *cat, Node *at, char *msg, char *remedy) { add_costed(fs, level, cat, at, msg, remedy, NULL); }

double access_reuse(const AccessStat *s, bool *whole) {
  *whole = s->whole_block_reuse > 0;
  if (*whole) return s->whole_block_reuse;
  return s->distinct ? (double)s->lanes / (double)s->distinct : 0;
}

/* the source lines a statement spans */
static void stmt_lines(Node *n, int *lo, int *hi) {
  *lo = n ? tok_loc(n->tok).line : 0;
  *hi = n && n->end_tok ? tok_loc(n->end_tok).line : *lo;
  if (*hi < *lo) *hi = *lo;
}

static bool leader_branch(const BranchStat *b) { return (double)b->taken <= 1.0 * (double)b->evals; }

/* a divergent branch's cost: the warp instructions of its arms issued by warps that diverged
 * there (an upper bound on what serializing the arms costs), at the issue limit */
static void branch_cost(const ReportCost *rc, const BranchStat *b, double dt[B_N]) {
  if (!rc || !rc->ok || rc->line_ins_total <= 0) return;
  /* at most one lane per warp takes it (a leader storing the warp's result, a leader's atomic):
   * no regrouping of the data needs fewer warps to run the arm, so divergence costs nothing */
  if (leader_branch(b)) return;
  Node *n = b->node;
  Node *arms[2] = {n->kind == ND_IF ? n->then : n->body, n->kind == ND_IF ? n->els : NULL};
  double ins = 0;
  SrcFile *file = rc->file;
  for (int k = 0; k < 2; k++) {
    if (!arms[k] || tok_loc(arms[k]->tok).file != file) continue;
    int lo, hi;
    stmt_lines(arms[k], &lo, &hi);
    for (int l = lo; l <= hi && l < rc->nlines; l++) ins += rc->line_ins[l];
  }
  double frac = b->evals ? (double)b->divergent / (double)b->evals : 0;
  dt[B_ISSUE] += rc->e.t[B_ISSUE] * ins * frac / rc->line_ins_total;
  dt[B_SFU] += rc->e.t[B_SFU] * ins * frac / rc->line_ins_total;
}

static const char *kind_name(AccessKind k) { return k == ACC_LOAD ? "load" : k == ACC_STORE ? "store" : "atomic"; }

static const char *access_class(const AccessStat *s) {
  if (s->indirect) return "indirect";
  if (!s->have_stride) return s->stride_text ? fmt("stride %s", s->stride_text) : s->index ? "thread-dependent stride" : "irregular";
  if (s->stride == 0) return "warp-uniform";
  if (s->stride == 1 || s->stride == -1) return "unit stride";
  return fmt("stride %lld", (long long)s->stride);
}

/* ideal sectors for one request: the bytes the active lanes use, in 32-byte sectors */
static double ideal_sectors(const AccessStat *s) { return (double)s->ideal_sectors / (double)s->requests; }

static bool exact(const AccessStat *s) {
  /* the same cost in every sampled request and an affine index: the rule gives the answer */
  return s->index && !s->indirect && s->min_units == s->max_units;
}

static void collect(Analysis *a, const ReportCost *rc, Findings *fs) {
  const Machine *m = a->m;
  Launch *L = a->L;
  int64_t threads = L->block[0] * L->block[1] * L->block[2];
  for (int i = 0; i < a->nacc; i++) {
    AccessStat *s = &a->acc[i];
    if (!s->requests) continue;
    if (s->space == SPACE_GLOBAL) {
      bool sm90 = !m || m->mem_rule == MEMRULE_SECTOR32;
      double spr = (double)s->sectors / (double)s->requests, ideal = sm90 ? ideal_sectors(s) : 2.0;
      double moved = (double)s->moved, used = (double)s->used;
      Cost cx = {.rc = rc};
      if (!sm90 && spr > 2.0 && rc) excess_global(rc, a, (double)s->sectors - 2.0 * (double)s->requests, 0, cx.dt);
      if (!sm90 && spr > 2.0)
        add_costed(fs, 2, "coalescing", s->node,
            fmt("global %s of '%s' (%s, %d bytes per thread) is not coalesced under %s's half-warp rule: %.2f transactions per warp "
                "request (2 when coalesced), moving %.1fx the bytes it uses", kind_name(s->kind), s->array, access_class(s), s->size, m->name, spr,
                moved / (used > 0 ? used : 1)),
            fmt("let thread k of each half-warp read word k of an aligned segment (Yang et al. 3.2-3.3)"), &cx);
      if (sm90 && spr > ideal * 1.25 && spr >= 2) {
        double ratio = moved / used;
        char *remedy = s->have_stride && s->stride == 0 && a->L->block[0] < 32
                           ? fmt("a warp spans %lld rows of the %lldx%lld block, each reading its own element: make blockDim.x 32 or more "
                                 "so a warp's threads share one row (or keep the row value in shared memory)",
                                 (long long)(32 / (a->L->block[0] ? a->L->block[0] : 1)), (long long)a->L->block[0], (long long)a->L->block[1])
                       : (s->have_stride && s->stride != 1 && s->stride != 0) || s->stride_text
                           ? fmt("make threadIdx.x index the fastest-varying dimension, or load a tile through shared memory "
                                 "with coalesced reads (Yang et al. 3.3)")
                           : s->indirect ? fmt("sort or bin the indices so neighbouring threads touch neighbouring elements")
                                         : fmt("align the start of each warp's segment to 32 bytes, or stage through shared memory");
        Cost c = {.rc = rc};
        double ideal_lines = fmax((double)s->requests, (double)s->ideal_sectors / 4.0);
        if (rc) excess_global(rc, a, (double)s->sectors - (double)s->ideal_sectors, fmax(0, (double)s->lines - ideal_lines), c.dt);
        add_costed(fs, 2, "coalescing", s->node,
            fmt("global %s of '%s' (%s, %d bytes per thread) takes %.2f sectors per request where %.2f would do: it moves %.1fx the bytes it uses",
                kind_name(s->kind), s->array, access_class(s), s->size, spr, ideal, ratio),
            remedy, &c);
      }
      if (s->kind == ACC_LOAD && s->blocks && s->distinct) {
        bool whole;
        double reuse = access_reuse(s, &whole);
        /* the repeated reads' share of the L2 traffic is what a copy in shared memory saves */
        Cost c = {.rc = rc};
        if (rc && reuse > 1) excess_global(rc, a, (double)s->sectors * (1 - 1 / reuse), 0, c.dt);
        if (reuse >= 4 && !(s->have_stride && s->stride == 0 && reuse < 32))
          add_costed(fs, 1, "reuse", s->node,
              fmt("each element of '%s' this load touches is read %.1f times within a block (%s)", s->array, reuse,
                  whole ? "every warp of block 0 run" : fmt("by the %d of %d warps sampled per block; more in a whole block", a->warps_run_per_block, a->warps_per_block)),
              fmt("load it once per block into shared memory (or registers) and reuse it there (Yang et al. 3.4-3.5)"), &c);
      }
      if (m && m->partition_map == PARTMAP_LINEAR && m->mem_partitions > 0) {
        uint64_t tot = 0, mx = 0;
        for (int p = 0; p < m->mem_partitions && p < 16; p++) { tot += s->part[p]; if (s->part[p] > mx) mx = s->part[p]; }
        double skew = tot ? (double)mx / ((double)tot / m->mem_partitions) : 0;
        Cost c = {.rc = rc};
        /* one partition serves the skewed share: the even spread saves 1 - 1/skew of its DRAM time */
        if (rc && tot && skew >= 2.0) {
          double tot_sec, tot_l1;
          traffic_totals(a, &tot_sec, &tot_l1);
          if (tot_sec > 0) c.dt[B_DRAM] = rc->e.t[B_DRAM] * (1 - 1 / skew) * (double)s->sectors / tot_sec;
        }
        if (tot && skew >= 2.0)
          add_costed(fs, 2, "partition-camping", s->node,
              fmt("the first wave of blocks sends %.0f%% of this %s's requests to one of %s's %d memory partitions (channel skew %.1f; 1.0 is even)",
                  100.0 * (double)mx / (double)tot, kind_name(s->kind), m->name, m->mem_partitions, skew),
              fmt("reorder blocks diagonally (blockIdx.x' = (blockIdx.x + blockIdx.y) %% gridDim.x) or offset each row by a partition width "
                  "(Yang et al. 3.7; Ruetsch and Micikevicius 2009)"), &c);
      }
      if (m && m->partition_map != 0 && s->have_stride && llabs((long long)s->stride) * s->size >= 2048 && m->mem_partitions == 0)
        add(fs, 1, "partition-camping", s->node,
            fmt("'%s' is walked with a stride of %lld bytes between neighbouring threads; on %s addresses are hashed over the memory "
                "partitions, so camping is unlikely (low confidence)", s->array, (long long)s->stride * s->size, m->name),
            fmt("if the profile shows L2-slice imbalance, offset each row or use a diagonal block order (Yang et al. 3.7)"));
    } else {
      double wpr = (double)s->wavefronts / (double)s->requests, ideal = (double)s->ideal / (double)s->requests;
      if (wpr > ideal * 1.1 + 0.01) {
        int degree = (int)lround(wpr / (ideal > 0 ? ideal : 1));
        char *remedy;
        Node *base = s->node;
        while (base->kind == ND_INDEX) { base = base->lhs; while (base->kind == ND_CAST && base->implicit) base = base->lhs; }
        Type *at = base->kind == ND_VAR ? base->var->ty : NULL;
        if (at && at->kind == TY_ARRAY && at->base->kind == TY_ARRAY && at->base->array_len > 0)
          remedy = fmt("declare '%s' as [%d][%d]: one element of padding per row makes a column walk all %d banks (or XOR-swizzle the column)",
                       base->var->name, at->array_len, at->base->array_len + 1, m ? m->smem_banks : 32);
        else if (s->have_stride && s->stride % 2 == 0 && s->stride != 0)
          remedy = fmt("pad each row by one element (a row of %lld becomes %lld) so a column walks all the banks, or swizzle the index",
                       (long long)llabs((long long)s->stride), (long long)llabs((long long)s->stride) + 1);
        else remedy = fmt("pad the array by one %d-byte word per row or XOR-swizzle the column index with the row", s->size < 4 ? 4 : s->size);
        Cost c = {.rc = rc};
        if (rc) {
          double tot_sec, tot_l1;
          traffic_totals(a, &tot_sec, &tot_l1);
          if (tot_l1 > 0) c.dt[B_L1] = rc->e.t[B_L1] * (double)(s->wavefronts - s->ideal) / tot_l1;
        }
        add_costed(fs, 2, "bank-conflict", s->node,
            fmt("shared %s of '%s' (%s, %d bytes per thread) has a %d-way bank conflict: %.2f wavefronts per request where %.0f would do",
                kind_name(s->kind), s->array, access_class(s), s->size, degree, wpr, ideal),
            remedy, &c);
      }
    }
  }
  for (int i = 0; i < a->nbr; i++) {
    BranchStat *b = &a->br[i];
    if (!b->evals) continue;
    double frac = (double)b->divergent / (double)b->evals, mean = (double)b->active / (double)b->evals;
    if (!b->divergent || frac < 0.05) continue;
    /* ?:, && and || become selects and predicated instructions: no serialized arms */
    if (b->node->kind == ND_COND || b->node->kind == ND_LOGAND || b->node->kind == ND_LOGOR) continue;
    Cost c = {.rc = rc};
    branch_cost(rc, b, c.dt);
    add_costed(fs, leader_branch(b) ? 1 : 2, "divergence", b->node,
        fmt("branch diverges in %.0f%% of warp executions (%llu of %llu); %.1f of 32 lanes active on average, %.0f%% take it",
            100 * frac, (unsigned long long)b->divergent, (unsigned long long)b->evals, mean, 100.0 * (double)b->taken / (double)b->active),
        leader_branch(b)
            ? fmt("at most one lane per warp takes it (a leader writing a warp's result, a leader's atomic): the usual idiom, costing only its arm; "
                  "keep the arm short, or let a warp shuffle carry the value")
            : fmt("make the condition uniform per warp (branch on threadIdx.x / 32, regroup the data), or shorten the arms (Cornelis ch. 4)"), &c);
  }
  /* launch shape */
  Obj *kern = L->kernel;
  Node *at = kern->body;
  const Estimate *e = rc && rc->ok ? &rc->e : NULL;
  Cost pad = {.rc = rc};
  int64_t wpb = (threads + 31) / 32;
  /* a partial warp issues as a whole one: its idle lanes' share of the issue */
  if (e) pad.dt[B_ISSUE] = e->t[B_ISSUE] * (double)(32 - threads % 32) / 32.0 / (double)wpb;
  if (threads % 32)
    add_costed(fs, 2, "launch", at, fmt("block of %lld threads is not a multiple of 32: its last warp runs %lld of 32 lanes", (long long)threads, (long long)(threads % 32)),
        fmt("use a multiple of 32 threads per block and guard the extra threads"), &pad);
  if (m) {
    /* the model's rule (cuda_occupancy.h for sm_90), registers left out: the analyzer has none */
    int smem = (int)(kernel_static_shared(L->kernel) + L->dyn_shared);
    Occupancy oc = occupancy(m, (int)threads, 0, smem);
    Cost occ = {.rc = rc};
    /* the latency limit falls with the warps that hide it, up to half occupancy */
    if (e) occ.dt[B_LATENCY] = e->t[B_LATENCY] * (1 - oc.occupancy / 0.5);
    if (oc.occupancy < 0.5)
      add_costed(fs, 2, "occupancy", at,
          fmt("at most %.0f%% occupancy on %s (%d blocks of %lld threads per SM, limited by %s; registers not counted)", 100 * oc.occupancy,
              m->name, oc.blocks_per_sm, (long long)threads, occ_limit_name(oc.limit)),
          fmt(oc.limit == LIMIT_SHARED ? "use less shared memory per block, or fewer bytes per thread" : "use larger blocks (128-512 threads)"), &occ);
    Cost idle = {.rc = rc};
    /* the throughput limits are shared by the SMs in use (estimate_time) */
    for (int b = 0; e && b < B_N; b++)
      if (b != B_LAUNCH && b != B_ATOMIC && b != B_LATENCY) idle.dt[b] = e->t[b] * (1 - (double)a->blocks_total / m->sm_count);
    if (a->blocks_total < m->sm_count)
      add_costed(fs, 2, "launch", at,
          fmt("grid of %lld blocks leaves %lld of the %d SMs of %s idle", (long long)a->blocks_total, (long long)(m->sm_count - a->blocks_total), m->sm_count, m->name),
          fmt("give each SM at least one block (several, to hide latency): split the work finer"), &idle);
  }
}

static void text_finding(Finding *f, FILE *out) {
  static const DiagLevel lv[] = {DIAG_NOTE, DIAG_NOTE, DIAG_WARNING, DIAG_ERROR};
  FILE *saved = diag_out;
  bool color = diag_color;
  diag_color = isatty(fileno(out)) && !getenv("NO_COLOR");   /* colour only on a terminal */
  diag_out = out;
  int w = diag_warnings, e = diag_errors;
  diag_at(lv[f->level], tok_loc(f->at->tok), "[%s] %s", f->category, f->msg);
  if (f->share >= 0)
    fprintf(out, "      = cost: about %.1f%% of the estimated kernel time (%s; %s)\n", 100 * f->share, seconds_text(f->saving_s),
            f->limit ? f->limit : "no limit it loads");
  if (f->remedy) fprintf(out, "      = remedy: %s\n", f->remedy);
  diag_warnings = w;
  diag_errors = e;
  diag_out = saved;
  diag_color = color;
}

char *seconds_text(double s) {
  if (s >= 1) return fmt("%.3g s", s);
  if (s >= 1e-3) return fmt("%.3g ms", s * 1e3);
  if (s >= 1e-6) return fmt("%.3g us", s * 1e6);
  return fmt("%.3g ns", s * 1e9);
}

void json_string(FILE *o, const char *s) {
  fputc('"', o);
  for (; s && *s; s++) {
    if (*s == '"' || *s == '\\') fprintf(o, "\\%c", *s);
    else if ((unsigned char)*s < 0x20) fprintf(o, "\\u%04x", *s);
    else fputc(*s, o);
  }
  fputc('"', o);
}
static void json(Analysis *a, const ReportCost *rc, Findings *fs, const char *file, FILE *o) {
  Launch *L = a->L;
  fprintf(o, "{\"file\": ");
  json_string(o, file);
  fprintf(o, ", \"kernel\": ");
  json_string(o, L->kernel->name);
  fprintf(o, ", \"arch\": ");
  json_string(o, a->m ? a->m->name : "?");
  fprintf(o, ", \"grid\": [%lld, %lld, %lld], \"block\": [%lld, %lld, %lld], \"blocks_total\": %lld, \"blocks_run\": %llu, \"sampled\": %s, "
             "\"warps_per_block\": %d, \"warps_run_per_block\": %d, \"warps_truncated\": %llu, \"step_cap\": %llu, \"complete\": %s, \"faults\": %d, "
             "\"threads_per_instruction\": %.3f,\n \"accesses\": [",
          (long long)L->grid[0], (long long)L->grid[1], (long long)L->grid[2], (long long)L->block[0], (long long)L->block[1], (long long)L->block[2],
          (long long)a->blocks_total, (unsigned long long)a->blocks_run, a->sampled ? "true" : "false", a->warps_per_block, a->warps_run_per_block,
          (unsigned long long)a->warps_truncated, (unsigned long long)a->step_cap, a->complete ? "true" : "false", a->faults,
          a->warp_steps ? (double)a->lane_ops / (double)a->warp_steps : 0.0);
  int k = 0;
  for (int i = 0; i < a->nacc; i++) {
    AccessStat *s = &a->acc[i];
    if (!s->requests) continue;
    SrcLoc l = tok_loc(s->node->tok);
    fprintf(o, "%s\n  {\"file\": ", k++ ? "," : "");
    json_string(o, l.file ? l.file->name : file);
    fprintf(o, ", \"line\": %d, \"column\": %d, \"space\": \"%s\", \"kind\": \"%s\", \"array\": ", l.line, l.col,
            s->space == SPACE_GLOBAL ? "global" : "shared", kind_name(s->kind));
    json_string(o, s->array);
    fprintf(o, ", \"index\": ");
    if (s->index) json_string(o, s->index); else fprintf(o, "null");
    fprintf(o, ", \"class\": ");
    json_string(o, access_class(s));
    fprintf(o, ", \"bytes_per_thread\": %d, \"requests\": %llu, ", s->size, (unsigned long long)s->requests);
    if (s->space == SPACE_GLOBAL)
      fprintf(o, "\"%s\": %.4f, \"ideal_sectors_per_request\": %.2f, \"bytes_moved\": %llu, \"bytes_used\": %llu",
              !a->m || a->m->mem_rule == MEMRULE_SECTOR32 ? "sectors_per_request" : "transactions_per_request",
              (double)s->sectors / (double)s->requests, ideal_sectors(s), (unsigned long long)s->moved,
              (unsigned long long)s->used);
    else
      fprintf(o, "\"wavefronts_per_request\": %.4f, \"ideal_wavefronts_per_request\": %.4f", (double)s->wavefronts / (double)s->requests,
              (double)s->ideal / (double)s->requests);
    bool whole;
    double reuse = access_reuse(s, &whole);
    fprintf(o, ", \"reads_per_element_in_block\": %.3f, \"reuse_over\": \"%s\", \"exact\": %s}", reuse, whole ? "whole block" : "sampled warps",
            exact(s) ? "true" : "false");
  }
  fprintf(o, "],\n \"warps_truncated\": %llu, \"unreached\": [", (unsigned long long)a->warps_truncated);
  for (int i = 0; i < a->nunreached; i++) { fprintf(o, "%s", i ? ", " : ""); json_string(o, a->unreached[i]); }
  fprintf(o, "],\n \"branches\": [");
  k = 0;
  for (int i = 0; i < a->nbr; i++) {
    BranchStat *b = &a->br[i];
    SrcLoc l = tok_loc(b->node->tok);
    fprintf(o, "%s\n  {\"line\": %d, \"column\": %d, \"thread_dependent\": %s, \"evaluations\": %llu, \"divergent\": %llu, "
               "\"divergent_fraction\": %.4f, \"mean_active_lanes\": %.3f}",
            k++ ? "," : "", l.line, l.col, b->thread_dependent ? "true" : "false", (unsigned long long)b->evals,
            (unsigned long long)b->divergent, b->evals ? (double)b->divergent / (double)b->evals : 0.0,
            b->evals ? (double)b->active / (double)b->evals : 0.0);
  }
  fprintf(o, "],\n \"findings\": [");
  static const char *lv[] = {"note", "note", "warning", "error"};
  for (int i = 0; i < fs->n; i++) {
    Finding *f = &fs->f[i];
    SrcLoc l = tok_loc(f->at->tok);
    fprintf(o, "%s\n  {\"level\": \"%s\", \"category\": \"%s\", \"line\": %d, \"column\": %d, \"message\": ", i ? "," : "", lv[f->level],
            f->category, l.line, l.col);
    json_string(o, f->msg);
    fprintf(o, ", \"remedy\": ");
    json_string(o, f->remedy);
    if (f->share >= 0) {
      fprintf(o, ", \"saving_seconds\": %.4g, \"share\": %.4f, \"limit\": ", f->saving_s, f->share);
      json_string(o, f->limit);
    } else fprintf(o, ", \"saving_seconds\": null, \"share\": null, \"limit\": null");
    fprintf(o, "}");
  }
  fprintf(o, "]");
  if (rc && rc->ok) fprintf(o, ",\n \"estimate\": {\"seconds\": %.4g, \"bottleneck\": \"%s\"}", rc->e.total, bottleneck_name(rc->e.bottleneck));
  fprintf(o, "}\n");
}

/* the rules: what each category means and its remedies (docs/analyze-json.md#rules). No public
 * home page is known for carve, so helpUri is a path relative to the source tree's root (SARIF
 * allows a URI reference) and the driver carries no informationUri. */
static const struct Rule { const char *id, *name, *short_text, *full, *help; } rules[] = {
  {"coalescing", "UncoalescedAccess", "A global access moves more 32-byte sectors than the bytes it uses need",
   "A warp's global load or store is served in 32-byte sectors (sm_90; half-warp transactions on compute capability 1.x). When "
   "neighbouring threads do not touch neighbouring addresses, each request moves sectors whose bytes no thread uses.",
   "Make threadIdx.x index the fastest-varying dimension, load a tile through shared memory with coalesced reads (Yang et al. 3.3), "
   "align each warp's segment, or sort indirect indices so neighbouring threads touch neighbouring elements."},
  {"bank-conflict", "SharedBankConflict", "A shared-memory access needs more wavefronts than a conflict-free one",
   "Shared memory has 32 banks of 4 bytes (16 on compute capability 1.x); lanes of a warp that touch different words of one bank are "
   "served one after another, one wavefront each.",
   "Pad each row of a shared array by one element ([32][33]), or XOR-swizzle the column index with the row."},
  {"divergence", "DivergentBranch", "The lanes of a warp take different ways at a branch",
   "A warp runs both arms of a branch its lanes disagree on, one after the other, with the other lanes idle. One lane per warp "
   "writing a result or making an atomic is an idiom costing only its arm: carve reports it only when its arm costs 0.5% or more "
   "of the estimated time.",
   "Make the condition uniform per warp (branch on threadIdx.x / 32, regroup the data) or shorten the arms (Cornelis ch. 4)."},
  {"reuse", "RepeatedGlobalReads", "Threads of a block read the same global elements many times",
   "Each element a load touches is read several times by the threads of one block, through L1 and L2; the figure is measured over "
   "a whole block (block 0, every warp).",
   "Load the elements once per block into shared memory or registers and reuse them there (Yang et al. 3.4-3.5)."},
  {"partition-camping", "PartitionCamping", "The blocks running together send their requests to few memory partitions",
   "On machines whose memory partitions are interleaved linearly (GT200), blocks of one wave that walk columns at a large power-of-two "
   "stride all hit one partition.",
   "Reorder blocks diagonally, or offset each row by one partition width (Yang et al. 3.7; Ruetsch and Micikevicius 2009)."},
  {"occupancy", "LowOccupancy", "Fewer than half the warps an SM can hold are resident",
   "Resident warps hide memory latency; the limit is the one of cuda_occupancy.h for sm_90 (registers not counted by analyze).",
   "Use less shared memory per block, or larger blocks (128-512 threads)."},
  {"launch", "LaunchShape", "The launch leaves lanes or SMs idle",
   "A block that is not a multiple of 32 threads runs a partial last warp; a grid with fewer blocks than SMs leaves SMs idle.",
   "Use a multiple of 32 threads per block, and at least one block per SM (several, to hide latency)."},
  {"fault", "KernelFault", "A thread the analyzer ran faulted (out of bounds, a race, a divergent barrier...)",
   "The interpreter checks every access of the threads it runs; a fault found there is a bug in the kernel for these inputs, and "
   "the analysis stops at it (exit status 1).",
   "Fix the access the message names (a missing bounds check, a missing __syncthreads); carve run checks every thread."},
};
enum { NRULES = sizeof rules / sizeof *rules };

static void sarif_driver(FILE *o) {
  fprintf(o, "{\"$schema\": \"https://json.schemastore.org/sarif-2.1.0.json\", \"version\": \"2.1.0\", \"runs\": [{\"tool\": {\"driver\": "
             "{\"name\": \"carve\", \"version\": \"%s\", \"rules\": [",
          CARVE_VERSION);
  for (int i = 0; i < NRULES; i++) {
    const struct Rule *r = &rules[i];
    fprintf(o, "%s\n  {\"id\": \"%s\", \"name\": \"%s\", \"shortDescription\": {\"text\": ", i ? "," : "", r->id, r->name);
    json_string(o, r->short_text);
    fprintf(o, "}, \"fullDescription\": {\"text\": ");
    json_string(o, r->full);
    fprintf(o, "}, \"help\": {\"text\": ");
    json_string(o, fmt("Remedy: %s See docs/analyze-json.md (rule %s) and carve(1).", r->help, r->id));
    fprintf(o, "}, \"helpUri\": \"docs/analyze-json.md#rule-%s\"}", r->id);
  }
  fprintf(o, "]}}");
}

static int rule_index(const char *id) {
  for (int i = 0; i < NRULES; i++) if (!strcmp(rules[i].id, id)) return i;
  return 0;
}

static void sarif(Analysis *a, Findings *fs, const char *file, FILE *o) {
  sarif_driver(o);
  fprintf(o, ", \"results\": [");
  static const char *lv[] = {"note", "note", "warning", "error"};
  for (int i = 0; i < fs->n; i++) {
    Finding *f = &fs->f[i];
    SrcLoc l = tok_loc(f->at->tok);
    fprintf(o, "%s\n {\"ruleId\": \"%s\", \"ruleIndex\": %d, \"level\": \"%s\", \"message\": {\"text\": ", i ? "," : "", f->category,
            rule_index(f->category), lv[f->level]);
    json_string(o, fmt("%s (remedy: %s)", f->msg, f->remedy ? f->remedy : "-"));
    fprintf(o, "}, \"locations\": [{\"physicalLocation\": {\"artifactLocation\": {\"uri\": ");
    json_string(o, l.file ? l.file->name : file);
    fprintf(o, "}, \"region\": {\"startLine\": %d, \"startColumn\": %d}}}]", l.line, l.col);
    /* SARIF's rank is a priority from 0 to 100: the share of the estimated time */
    if (f->share >= 0)
      fprintf(o, ", \"rank\": %.1f, \"properties\": {\"saving_seconds\": %.4g, \"share\": %.4f}", 100 * f->share, f->saving_s, f->share);
    fprintf(o, "}");
  }
  /* the faults found: errors, each where it happened and by which thread */
  for (int i = 0; i < a->nfault; i++) {
    const Fault *f = &a->fault_rec[i];
    SrcLoc l = f->at ? tok_loc(f->at->tok) : (SrcLoc){0};
    fprintf(o, "%s\n {\"ruleId\": \"fault\", \"ruleIndex\": %d, \"level\": \"error\", \"message\": {\"text\": ", i || fs->n ? "," : "",
            rule_index("fault"));
    json_string(o, f->message);
    fprintf(o, "}, \"locations\": [{\"physicalLocation\": {\"artifactLocation\": {\"uri\": ");
    json_string(o, l.file ? l.file->name : file);
    fprintf(o, "}, \"region\": {\"startLine\": %d, \"startColumn\": %d}}}], \"properties\": {\"kind\": \"%s\"", l.line > 0 ? l.line : 1,
            l.col > 0 ? l.col : 1, fault_kind_name(f->kind));
    if (f->in_kernel) fprintf(o, ", \"block\": [%lld, %lld, %lld]", (long long)f->block[0], (long long)f->block[1], (long long)f->block[2]);
    if (f->lane >= 0) fprintf(o, ", \"thread\": [%u, %u, %u]", f->thread[0], f->thread[1], f->thread[2]);
    fprintf(o, "}}");
  }
  /* what ran: a code-scanning tool must not read "no results" as "no faults" */
  fprintf(o, "], \"invocations\": [{\"executionSuccessful\": true, \"properties\": {\"sampled\": %s, \"complete\": %s}, "
             "\"toolExecutionNotifications\": [{\"level\": \"note\", \"message\": {\"text\": ", a->sampled ? "true" : "false",
          a->complete ? "true" : "false");
  json_string(o, fmt("interpreted %llu of %lld blocks%s, %d of %d warps in each; %s", (unsigned long long)a->blocks_run, (long long)a->blocks_total,
                     a->sampled ? " (sampled)" : "", a->warps_run_per_block, a->warps_per_block,
                     a->faults ? "a fault was found" : a->complete ? "every thread ran to its end: no fault for these inputs"
                                                                     : "no fault in the threads run; not a check of the launch ('carve run' runs every thread)"));
  fprintf(o, "}}");
  /* the accesses no thread run reached: not checked for faults, not measured */
  for (int i = 0; i < a->nunreached; i++) {
    int line = 0, col = 0;
    sscanf(a->unreached[i], "%d:%d", &line, &col);
    fprintf(o, ",\n  {\"level\": \"note\", \"message\": {\"text\": ");
    json_string(o, fmt("not reached by the threads run (not checked, not measured): %s", strchr(a->unreached[i], ' ') ? strchr(a->unreached[i], ' ') + 1 : a->unreached[i]));
    fprintf(o, "}, \"locations\": [{\"physicalLocation\": {\"artifactLocation\": {\"uri\": ");
    json_string(o, a->L && a->L->kernel ? tok_loc(a->L->kernel->tok).file->name : file);
    fprintf(o, "}, \"region\": {\"startLine\": %d, \"startColumn\": %d}}}]}", line > 0 ? line : 1, col > 0 ? col : 1);
  }
  fprintf(o, "]}]}]}\n");
}

void sarif_input_error(FILE *o, const char *file, const DiagCapture *c) {
  sarif_driver(o);
  fprintf(o, ", \"results\": [], \"invocations\": [{\"executionSuccessful\": false, \"exitCode\": 2, \"toolExecutionNotifications\": [");
  static const char *lv[] = {"note", "warning", "error"};
  int k = 0;
  for (int i = 0; c && i < c->n; i++) {
    const Diag *d = &c->d[i];
    fprintf(o, "%s\n  {\"level\": \"%s\", \"message\": {\"text\": ", k++ ? "," : "", lv[d->level]);
    json_string(o, d->msg);
    fprintf(o, "}");
    if (d->file && d->line > 0) {
      fprintf(o, ", \"locations\": [{\"physicalLocation\": {\"artifactLocation\": {\"uri\": ");
      json_string(o, d->file);
      fprintf(o, "}, \"region\": {\"startLine\": %d, \"startColumn\": %d}}}]", d->line, d->col > 0 ? d->col : 1);
    }
    fprintf(o, "}");
  }
  if (!k) {
    /* nothing located was said (an option, a missing file): still a failed run, never an empty log */
    fprintf(o, "\n  {\"level\": \"error\", \"message\": {\"text\": ");
    json_string(o, fmt("carve analyze could not analyze '%s' (see standard error)", file ? file : "?"));
    fprintf(o, "}}");
  }
  fprintf(o, "]}]}]}\n");
}

static void text(Analysis *a, Findings *fs, const char *file, FILE *o) {
  Launch *L = a->L;
  /* say exactly what ran: a fault is only ever searched for in these threads */
  fprintf(o, "%s: %s<<<(%lld,%lld,%lld), (%lld,%lld,%lld)>>> on %s: interpreted %llu of %lld blocks%s, %d of %d warps in each%s", file,
          L->kernel->name, (long long)L->grid[0], (long long)L->grid[1], (long long)L->grid[2], (long long)L->block[0], (long long)L->block[1],
          (long long)L->block[2], a->m ? a->m->name : "?", (unsigned long long)a->blocks_run, (long long)a->blocks_total,
          a->sampled ? " (sampled)" : "", a->warps_run_per_block, a->warps_per_block,
          a->warps_run_per_block < a->warps_per_block ? " (the first, a middle, the last)" : "");
  if (a->warps_truncated)
    fprintf(o, ", %llu warps stopped at the cap of %llu warp-steps", (unsigned long long)a->warps_truncated, (unsigned long long)a->step_cap);
  fprintf(o, "\n");
  if (a->faults) fprintf(o, "  faults: %d (above)\n", a->faults);
  else if (a->complete) fprintf(o, "  faults: none (every thread ran to its end)\n");
  else fprintf(o, "  faults: none in the threads run; not a check of the launch ('carve run' runs every thread)\n");
  bool sm90 = !a->m || a->m->mem_rule == MEMRULE_SECTOR32;
  if (a->nacc)
    fprintf(o, "  per request: %s per warp request (global), shared-memory wavefronts per warp request (shared); ideal: the fewest the bytes used need\n",
            sm90 ? "32-byte sectors" : "memory transactions (the half-warp rule)");
  fprintf(o, "  %-20s %-7s %-6s %-26s %5s %-19s %7s %s\n", "location", "space", "kind", "array", "bytes", "per request", "ideal", "index");
  for (int i = 0; i < a->nacc; i++) {
    AccessStat *s = &a->acc[i];
    if (!s->requests) continue;
    SrcLoc l = tok_loc(s->node->tok);
    double per = s->space == SPACE_GLOBAL ? (double)s->sectors / (double)s->requests : (double)s->wavefronts / (double)s->requests;
    double ideal = s->space == SPACE_GLOBAL ? ideal_sectors(s) : (double)s->ideal / (double)s->requests;
    fprintf(o, "  %-20s %-7s %-6s %-26.26s %5d %7.2f %-11s %7.2f %s [%s%s]\n", fmt("%d:%d", l.line, l.col), s->space == SPACE_GLOBAL ? "global" : "shared",
            kind_name(s->kind), s->array, s->size, per, s->space == SPACE_GLOBAL ? (sm90 ? "sectors" : "transactions") : "wavefronts", ideal, s->index ? s->index : "(not affine)",
            access_class(s), exact(s) ? ", exact" : ", sampled");
  }
  if (a->warp_steps)
    fprintf(o, "  threads per instruction (mean active lanes): %.2f of 32\n", (double)a->lane_ops / (double)a->warp_steps);
  if (a->warps_truncated)
    fprintf(o, "  sampled: %llu warps stopped after their share of the step budget (long loops are measured on their first iterations)\n",
            (unsigned long long)a->warps_truncated);
  for (int i = 0; i < a->nunreached; i++) fprintf(o, "  not reached in the sampled run: %s\n", a->unreached[i]);
  for (int i = 0; i < fs->n; i++) text_finding(&fs->f[i], o);
  if (!fs->n) fprintf(o, "  no findings\n");
}

/* largest saving first; findings without a cost after, errors before warnings before notes */
static int by_cost(const void *x, const void *y) {
  const Finding *a = x, *b = y;
  if ((a->share >= 0) != (b->share >= 0)) return a->share >= 0 ? -1 : 1;
  if (a->share >= 0 && a->saving_s != b->saving_s) return a->saving_s > b->saving_s ? -1 : 1;
  if (a->level != b->level) return b->level - a->level;
  return 0;
}

/* with a cost the level is the share: 10% or more a warning, else a note; a divergent branch or
 * a reuse under 0.5% is an idiom (a leader's write or atomic, a table every thread reads through
 * L1), not a finding */
enum { WARN_SHARE_PCT = 10 };
static const double IDIOM_SHARE = 0.005;

Findings findings_collect(Analysis *a, const ReportCost *rc) {
  Findings fs = {0};
  collect(a, rc && rc->ok ? rc : NULL, &fs);
  int k = 0;
  for (int i = 0; i < fs.n; i++) {
    Finding *f = &fs.f[i];
    if (f->share >= 0) {
      /* a leader's write or atomic, elements every lane reads from L1: cheap, not findings */
      if ((!strcmp(f->category, "divergence") || !strcmp(f->category, "reuse")) && f->share < IDIOM_SHARE) continue;
      if (f->level < 3) f->level = f->share * 100 >= WARN_SHARE_PCT ? 2 : 1;
    }
    fs.f[k++] = *f;
  }
  fs.n = k;
  /* stable: equal keys keep the order found */
  for (int i = 1; i < fs.n; i++)
    for (int j = i; j > 0 && by_cost(&fs.f[j - 1], &fs.f[j]) > 0; j--) { Finding t = fs.f[j]; fs.f[j] = fs.f[j - 1]; fs.f[j - 1] = t; }
  return fs;
}

void findings_free(Findings *fs) {
  free(fs->f);
  fs->f = NULL;
  fs->n = 0;
}

int report(Analysis *a, const char *file, ReportFormat f, FILE *out) { return report_costed(a, NULL, file, f, out); }

int report_costed(Analysis *a, const ReportCost *rc, const char *file, ReportFormat f, FILE *out) {
  Findings fs = findings_collect(a, rc);
  if (f == FMT_JSON) json(a, rc, &fs, file, out);
  else if (f == FMT_SARIF) sarif(a, &fs, file, out);
  else text(a, &fs, file, out);
  int worst = 0;
  for (int i = 0; i < fs.n; i++) if (fs.f[i].level > worst) worst = fs.f[i].level;
  free(fs.f);
  return worst;
}
