/* findings: the analyzer's rules (what in an analysis is a finding, its level and remedy) and
 * what each costs (the model's estimate less the estimate without the finding's excess work),
 * ranked. Beside the model, so the optimizer asks for findings without the printers; report.c
 * prints them (findings.h). */
#include "findings.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- what findings cost ---- */
double report_overlap_total(const double t[B_N]) { return limits_overlap(t); }

typedef struct {
  Analysis *a;
  ReportCost *rc;
} CostWork;
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
    Occupancy oc =
      occupancy(a->m, threads, 0, (int)(kernel_static_shared(L->kernel) + L->dyn_shared));
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
  if (!carve_pcall(cost_work, &w)) {
    report_cost_free(rc);
    return 2;
  }
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
    if (s->space == SPACE_GLOBAL) {
      *sectors += (double)s->sectors;
      *l1 += (double)(s->lines ? s->lines : s->requests);
    } else *l1 += (double)s->wavefronts;
  }
}

/* excess global sectors and L1 lines of an access, as limit times */
static void excess_global(const ReportCost *rc, const Analysis *a, double sectors, double lines,
                          double dt[B_N]) {
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

typedef struct {
  const ReportCost *rc;
  double dt[B_N];
} Cost;

static void add_costed(Findings *fs, int level, const char *cat, Node *at, char *msg, char *remedy,
                       const Cost *c) {
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

static void add(Findings *fs, int level, const char *cat, Node *at, char *msg, char *remedy) {
  add_costed(fs, level, cat, at, msg, remedy, NULL);
}

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

static bool leader_branch(const BranchStat *b) {
  return (double)b->taken <= 1.0 * (double)b->evals;
}

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

const char *access_kind_name(AccessKind k) {
  return k == ACC_LOAD ? "load" : k == ACC_STORE ? "store" : "atomic";
}

const char *access_class(const AccessStat *s) {
  if (s->indirect) return "indirect";
  if (!s->have_stride)
    return s->stride_text ? fmt("stride %s", s->stride_text)
           : s->index     ? "thread-dependent stride"
                          : "irregular";
  if (s->stride == 0) return "warp-uniform";
  if (s->stride == 1 || s->stride == -1) return "unit stride";
  return fmt("stride %lld", (long long)s->stride);
}

/* ideal sectors for one request: the bytes the active lanes use, in 32-byte sectors */
double access_ideal_sectors(const AccessStat *s) {
  return (double)s->ideal_sectors / (double)s->requests;
}

bool access_exact(const AccessStat *s) {
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
      double spr = (double)s->sectors / (double)s->requests,
             ideal = sm90 ? access_ideal_sectors(s) : 2.0;
      double moved = (double)s->moved, used = (double)s->used;
      Cost cx = {.rc = rc};
      if (!sm90 && spr > 2.0 && rc)
        excess_global(rc, a, (double)s->sectors - 2.0 * (double)s->requests, 0, cx.dt);
      if (!sm90 && spr > 2.0)
        add_costed(
          fs, 2, "coalescing", s->node,
          fmt(
            "global %s of '%s' (%s, %d bytes per thread) is not coalesced under %s's half-warp rule: %.2f transactions per warp "
            "request (2 when coalesced), moving %.1fx the bytes it uses",
            access_kind_name(s->kind), s->array, access_class(s), s->size, m->name, spr,
            moved / (used > 0 ? used : 1)),
          fmt(
            "let thread k of each half-warp read word k of an aligned segment (Yang et al. 3.2-3.3)"),
          &cx);
      if (sm90 && spr > ideal * 1.25 && spr >= 2) {
        double ratio = moved / used;
        char *remedy =
          s->have_stride && s->stride == 0 && a->L->block[0] < 32
            ? fmt(
                "a warp spans %lld rows of the %lldx%lld block, each reading its own element: make blockDim.x 32 or more "
                "so a warp's threads share one row (or keep the row value in shared memory)",
                (long long)(32 / (a->L->block[0] ? a->L->block[0] : 1)), (long long)a->L->block[0],
                (long long)a->L->block[1])
          : (s->have_stride && s->stride != 1 && s->stride != 0) || s->stride_text
            ? fmt(
                "make threadIdx.x index the fastest-varying dimension, or load a tile through shared memory "
                "with coalesced reads (Yang et al. 3.3)")
          : s->indirect
            ? fmt("sort or bin the indices so neighbouring threads touch neighbouring elements")
            : fmt(
                "align the start of each warp's segment to 32 bytes, or stage through shared memory");
        Cost c = {.rc = rc};
        double ideal_lines = fmax((double)s->requests, (double)s->ideal_sectors / 4.0);
        if (rc)
          excess_global(rc, a, (double)s->sectors - (double)s->ideal_sectors,
                        fmax(0, (double)s->lines - ideal_lines), c.dt);
        add_costed(
          fs, 2, "coalescing", s->node,
          fmt(
            "global %s of '%s' (%s, %d bytes per thread) takes %.2f sectors per request where %.2f would do: it moves %.1fx the bytes it uses",
            access_kind_name(s->kind), s->array, access_class(s), s->size, spr, ideal, ratio),
          remedy, &c);
      }
      if (s->kind == ACC_LOAD && s->blocks && s->distinct) {
        bool whole;
        double reuse = access_reuse(s, &whole);
        /* the repeated reads' share of the L2 traffic is what a copy in shared memory saves */
        Cost c = {.rc = rc};
        if (rc && reuse > 1) excess_global(rc, a, (double)s->sectors * (1 - 1 / reuse), 0, c.dt);
        if (reuse >= 4 && !(s->have_stride && s->stride == 0 && reuse < 32))
          add_costed(
            fs, 1, "reuse", s->node,
            fmt("each element of '%s' this load touches is read %.1f times within a block (%s)",
                s->array, reuse,
                whole ? "every warp of block 0 run"
                      : fmt("by the %d of %d warps sampled per block; more in a whole block",
                            a->warps_run_per_block, a->warps_per_block)),
            fmt(
              "load it once per block into shared memory (or registers) and reuse it there (Yang et al. 3.4-3.5)"),
            &c);
      }
      if (m && m->partition_map == PARTMAP_LINEAR && m->mem_partitions > 0) {
        uint64_t tot = 0, mx = 0;
        for (int p = 0; p < m->mem_partitions && p < 16; p++) {
          tot += s->part[p];
          if (s->part[p] > mx) mx = s->part[p];
        }
        double skew = tot ? (double)mx / ((double)tot / m->mem_partitions) : 0;
        Cost c = {.rc = rc};
        /* one partition serves the skewed share: the even spread saves 1 - 1/skew of its DRAM time */
        if (rc && tot && skew >= 2.0) {
          double tot_sec, tot_l1;
          traffic_totals(a, &tot_sec, &tot_l1);
          if (tot_sec > 0)
            c.dt[B_DRAM] = rc->e.t[B_DRAM] * (1 - 1 / skew) * (double)s->sectors / tot_sec;
        }
        if (tot && skew >= 2.0)
          add_costed(
            fs, 2, "partition-camping", s->node,
            fmt(
              "the first wave of blocks sends %.0f%% of this %s's requests to one of %s's %d memory partitions (channel skew %.1f; 1.0 is even)",
              100.0 * (double)mx / (double)tot, access_kind_name(s->kind), m->name,
              m->mem_partitions, skew),
            fmt(
              "reorder blocks diagonally (blockIdx.x' = (blockIdx.x + blockIdx.y) %% gridDim.x) or offset each row by a partition width "
              "(Yang et al. 3.7; Ruetsch and Micikevicius 2009)"),
            &c);
      }
      if (m && m->partition_map != 0 && s->have_stride &&
          llabs((long long)s->stride) * s->size >= 2048 && m->mem_partitions == 0)
        add(
          fs, 1, "partition-camping", s->node,
          fmt(
            "'%s' is walked with a stride of %lld bytes between neighbouring threads; on %s addresses are hashed over the memory "
            "partitions, so camping is unlikely (low confidence)",
            s->array, (long long)s->stride * s->size, m->name),
          fmt(
            "if the profile shows L2-slice imbalance, offset each row or use a diagonal block order (Yang et al. 3.7)"));
    } else {
      double wpr = (double)s->wavefronts / (double)s->requests,
             ideal = (double)s->ideal / (double)s->requests;
      if (wpr > ideal * 1.1 + 0.01) {
        int degree = (int)lround(wpr / (ideal > 0 ? ideal : 1));
        char *remedy;
        Node *base = s->node;
        while (base->kind == ND_INDEX) {
          base = base->lhs;
          while (base->kind == ND_CAST && base->implicit) base = base->lhs;
        }
        Type *at = base->kind == ND_VAR ? base->var->ty : NULL;
        if (at && at->kind == TY_ARRAY && at->base->kind == TY_ARRAY && at->base->array_len > 0)
          remedy = fmt(
            "declare '%s' as [%d][%d]: one element of padding per row makes a column walk all %d banks (or XOR-swizzle the column)",
            base->var->name, at->array_len, at->base->array_len + 1, m ? m->smem_banks : 32);
        else if (s->have_stride && s->stride % 2 == 0 && s->stride != 0)
          remedy = fmt(
            "pad each row by one element (a row of %lld becomes %lld) so a column walks all the banks, or swizzle the index",
            (long long)llabs((long long)s->stride), (long long)llabs((long long)s->stride) + 1);
        else
          remedy = fmt(
            "pad the array by one %d-byte word per row or XOR-swizzle the column index with the row",
            s->size < 4 ? 4 : s->size);
        Cost c = {.rc = rc};
        if (rc) {
          double tot_sec, tot_l1;
          traffic_totals(a, &tot_sec, &tot_l1);
          if (tot_l1 > 0) c.dt[B_L1] = rc->e.t[B_L1] * (double)(s->wavefronts - s->ideal) / tot_l1;
        }
        add_costed(
          fs, 2, "bank-conflict", s->node,
          fmt(
            "shared %s of '%s' (%s, %d bytes per thread) has a %d-way bank conflict: %.2f wavefronts per request where %.0f would do",
            access_kind_name(s->kind), s->array, access_class(s), s->size, degree, wpr, ideal),
          remedy, &c);
      }
    }
  }
  for (int i = 0; i < a->nbr; i++) {
    BranchStat *b = &a->br[i];
    if (!b->evals) continue;
    double frac = (double)b->divergent / (double)b->evals,
           mean = (double)b->active / (double)b->evals;
    if (!b->divergent || frac < 0.05) continue;
    /* ?:, && and || become selects and predicated instructions: no serialized arms */
    if (b->node->kind == ND_COND || b->node->kind == ND_LOGAND || b->node->kind == ND_LOGOR)
      continue;
    Cost c = {.rc = rc};
    branch_cost(rc, b, c.dt);
    add_costed(
      fs, leader_branch(b) ? 1 : 2, "divergence", b->node,
      fmt(
        "branch diverges in %.0f%% of warp executions (%llu of %llu); %.1f of 32 lanes active on average, %.0f%% take it",
        100 * frac, (unsigned long long)b->divergent, (unsigned long long)b->evals, mean,
        100.0 * (double)b->taken / (double)b->active),
      leader_branch(b)
        ? fmt(
            "at most one lane per warp takes it (a leader writing a warp's result, a leader's atomic): the usual idiom, costing only its arm; "
            "keep the arm short, or let a warp shuffle carry the value")
        : fmt(
            "make the condition uniform per warp (branch on threadIdx.x / 32, regroup the data), or shorten the arms (Cornelis ch. 4)"),
      &c);
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
    add_costed(
      fs, 2, "launch", at,
      fmt("block of %lld threads is not a multiple of 32: its last warp runs %lld of 32 lanes",
          (long long)threads, (long long)(threads % 32)),
      fmt("use a multiple of 32 threads per block and guard the extra threads"), &pad);
  if (m) {
    /* the model's rule (cuda_occupancy.h for sm_90), registers left out: the analyzer has none */
    int smem = (int)(kernel_static_shared(L->kernel) + L->dyn_shared);
    Occupancy oc = occupancy(m, (int)threads, 0, smem);
    Cost occ = {.rc = rc};
    /* the latency limit falls with the warps that hide it, up to half occupancy */
    if (e) occ.dt[B_LATENCY] = e->t[B_LATENCY] * (1 - oc.occupancy / 0.5);
    if (oc.occupancy < 0.5)
      add_costed(
        fs, 2, "occupancy", at,
        fmt(
          "at most %.0f%% occupancy on %s (%d blocks of %lld threads per SM, limited by %s; registers not counted)",
          100 * oc.occupancy, m->name, oc.blocks_per_sm, (long long)threads,
          occ_limit_name(oc.limit)),
        fmt(oc.limit == LIMIT_SHARED ? "use less shared memory per block, or fewer bytes per thread"
                                     : "use larger blocks (128-512 threads)"),
        &occ);
    Cost idle = {.rc = rc};
    /* the throughput limits are shared by the SMs in use (estimate_time) */
    for (int b = 0; e && b < B_N; b++)
      if (b != B_LAUNCH && b != B_ATOMIC && b != B_LATENCY && b != B_BLOCKS)
        idle.dt[b] = e->t[b] * (1 - (double)a->blocks_total / m->sm_count);
    if (a->blocks_total < m->sm_count)
      add_costed(
        fs, 2, "launch", at,
        fmt("grid of %lld blocks leaves %lld of the %d SMs of %s idle", (long long)a->blocks_total,
            (long long)(m->sm_count - a->blocks_total), m->sm_count, m->name),
        fmt("give each SM at least one block (several, to hide latency): split the work finer"),
        &idle);
  }
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
      if ((!strcmp(f->category, "divergence") || !strcmp(f->category, "reuse")) &&
          f->share < IDIOM_SHARE)
        continue;
      if (f->level < 3) f->level = f->share * 100 >= WARN_SHARE_PCT ? 2 : 1;
    }
    fs.f[k++] = *f;
  }
  fs.n = k;
  /* stable: equal keys keep the order found */
  for (int i = 1; i < fs.n; i++)
    for (int j = i; j > 0 && by_cost(&fs.f[j - 1], &fs.f[j]) > 0; j--) {
      Finding t = fs.f[j];
      fs.f[j] = fs.f[j - 1];
      fs.f[j - 1] = t;
    }
  return fs;
}

void findings_free(Findings *fs) {
  free(fs->f);
  fs->f = NULL;
  fs->n = 0;
}
