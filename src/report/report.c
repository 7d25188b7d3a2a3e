/* report: an analysis as findings (location, cost, remedy) in text (gcc style, caret lines),
 * JSON (docs/analyze-json.md) or SARIF 2.1.0 for code-scanning tools. */
#include "report.h"
#include "../model/model.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct { int level; const char *category; Node *at; char *msg; char *remedy; } Finding;
typedef struct { Finding *f; int n; } Findings;

static void add(Findings *fs, int level, const char *cat, Node *at, char *msg, char *remedy) {
  fs->f = xrealloc(fs->f, sizeof(Finding) * (size_t)(fs->n + 1));
  fs->f[fs->n++] = (Finding){level, cat, at, msg, remedy};
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

static void collect(Analysis *a, Findings *fs) {
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
      if (!sm90 && spr > 2.0)
        add(fs, 2, "coalescing", s->node,
            fmt("global %s of '%s' (%s, %d bytes per thread) is not coalesced under %s's half-warp rule: %.2f transactions per warp "
                "request (2 when coalesced), moving %.1fx the bytes it uses", kind_name(s->kind), s->array, access_class(s), s->size, m->name, spr,
                moved / (used > 0 ? used : 1)),
            fmt("let thread k of each half-warp read word k of an aligned segment (Yang et al. 3.2-3.3)"));
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
        add(fs, 2, "coalescing", s->node,
            fmt("global %s of '%s' (%s, %d bytes per thread) takes %.2f sectors per request where %.2f would do: it moves %.1fx the bytes it uses",
                kind_name(s->kind), s->array, access_class(s), s->size, spr, ideal, ratio),
            remedy);
      }
      if (s->kind == ACC_LOAD && s->blocks && s->distinct) {
        double reuse = (double)s->lanes / (double)s->distinct;
        if (reuse >= 4 && !(s->have_stride && s->stride == 0 && reuse < 32))
          add(fs, 1, "reuse", s->node,
              fmt("each element of '%s' this load touches is read %.1f times within a block", s->array, reuse),
              fmt("load it once per block into shared memory (or registers) and reuse it there (Yang et al. 3.4-3.5)"));
      }
      if (m && m->partition_map == PARTMAP_LINEAR && m->mem_partitions > 0) {
        uint64_t tot = 0, mx = 0;
        for (int p = 0; p < m->mem_partitions && p < 16; p++) { tot += s->part[p]; if (s->part[p] > mx) mx = s->part[p]; }
        double skew = tot ? (double)mx / ((double)tot / m->mem_partitions) : 0;
        if (tot && skew >= 2.0)
          add(fs, 2, "partition-camping", s->node,
              fmt("the first wave of blocks sends %.0f%% of this %s's requests to one of %s's %d memory partitions (channel skew %.1f; 1.0 is even)",
                  100.0 * (double)mx / (double)tot, kind_name(s->kind), m->name, m->mem_partitions, skew),
              fmt("reorder blocks diagonally (blockIdx.x' = (blockIdx.x + blockIdx.y) %% gridDim.x) or offset each row by a partition width "
                  "(Yang et al. 3.7; Ruetsch and Micikevicius 2009)"));
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
        add(fs, 2, "bank-conflict", s->node,
            fmt("shared %s of '%s' (%s, %d bytes per thread) has a %d-way bank conflict: %.2f wavefronts per request where %.0f would do",
                kind_name(s->kind), s->array, access_class(s), s->size, degree, wpr, ideal),
            remedy);
      }
    }
  }
  for (int i = 0; i < a->nbr; i++) {
    BranchStat *b = &a->br[i];
    if (!b->evals) continue;
    double frac = (double)b->divergent / (double)b->evals, mean = (double)b->active / (double)b->evals;
    if (b->divergent && frac >= 0.05)
      add(fs, 2, "divergence", b->node,
          fmt("branch diverges in %.0f%% of warp executions (%llu of %llu); %.1f of 32 lanes active on average, %.0f%% take it",
              100 * frac, (unsigned long long)b->divergent, (unsigned long long)b->evals, mean, 100.0 * (double)b->taken / (double)b->active),
          fmt("make the condition uniform per warp (branch on threadIdx.x / 32, regroup the data), or shorten the arms (Cornelis ch. 4)"));
  }
  /* launch shape */
  Obj *kern = L->kernel;
  Node *at = kern->body;
  if (threads % 32)
    add(fs, 2, "launch", at, fmt("block of %lld threads is not a multiple of 32: its last warp runs %lld of 32 lanes", (long long)threads, (long long)(threads % 32)),
        fmt("use a multiple of 32 threads per block and guard the extra threads"));
  if (m) {
    /* the model's rule (cuda_occupancy.h for sm_90), registers left out: the analyzer has none */
    int smem = (int)(kernel_static_shared(L->kernel) + L->dyn_shared);
    Occupancy oc = occupancy(m, (int)threads, 0, smem);
    if (oc.occupancy < 0.5)
      add(fs, 2, "occupancy", at,
          fmt("at most %.0f%% occupancy on %s (%d blocks of %lld threads per SM, limited by %s; registers not counted)", 100 * oc.occupancy,
              m->name, oc.blocks_per_sm, (long long)threads, occ_limit_name(oc.limit)),
          fmt(oc.limit == LIMIT_SHARED ? "use less shared memory per block, or fewer bytes per thread" : "use larger blocks (128-512 threads)"));
    if (a->blocks_total < m->sm_count)
      add(fs, 2, "launch", at,
          fmt("grid of %lld blocks leaves %lld of the %d SMs of %s idle", (long long)a->blocks_total, (long long)(m->sm_count - a->blocks_total), m->sm_count, m->name),
          fmt("give each SM at least one block (several, to hide latency): split the work finer"));
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
  if (f->remedy) fprintf(out, "      = remedy: %s\n", f->remedy);
  diag_warnings = w;
  diag_errors = e;
  diag_out = saved;
  diag_color = color;
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
static void json(Analysis *a, Findings *fs, const char *file, FILE *o) {
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
    fprintf(o, ", \"reads_per_element_in_block\": %.3f, \"exact\": %s}", s->distinct ? (double)s->lanes / (double)s->distinct : 0.0,
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
    fprintf(o, "}");
  }
  fprintf(o, "]}\n");
}

static void sarif(Analysis *a, Findings *fs, const char *file, FILE *o) {
  static const char *cats[] = {"coalescing", "bank-conflict", "divergence", "reuse", "partition-camping", "occupancy", "launch"};
  fprintf(o, "{\"$schema\": \"https://json.schemastore.org/sarif-2.1.0.json\", \"version\": \"2.1.0\", \"runs\": [{\"tool\": {\"driver\": "
             "{\"name\": \"carve\", \"version\": \"%s\", \"informationUri\": \"https://example.invalid/carve\", \"rules\": [",
          CARVE_VERSION);
  for (size_t i = 0; i < sizeof cats / sizeof *cats; i++)
    fprintf(o, "%s{\"id\": \"%s\", \"shortDescription\": {\"text\": \"%s\"}}", i ? ", " : "", cats[i], cats[i]);
  fprintf(o, "]}}, \"results\": [");
  static const char *lv[] = {"note", "note", "warning", "error"};
  for (int i = 0; i < fs->n; i++) {
    Finding *f = &fs->f[i];
    SrcLoc l = tok_loc(f->at->tok);
    fprintf(o, "%s\n {\"ruleId\": \"%s\", \"level\": \"%s\", \"message\": {\"text\": ", i ? "," : "", f->category, lv[f->level]);
    json_string(o, fmt("%s (remedy: %s)", f->msg, f->remedy ? f->remedy : "-"));
    fprintf(o, "}, \"locations\": [{\"physicalLocation\": {\"artifactLocation\": {\"uri\": ");
    json_string(o, l.file ? l.file->name : file);
    fprintf(o, "}, \"region\": {\"startLine\": %d, \"startColumn\": %d}}}]}", l.line, l.col);
  }
  /* what ran: a code-scanning tool must not read "no results" as "no faults" */
  fprintf(o, "], \"invocations\": [{\"executionSuccessful\": true, \"toolExecutionNotifications\": [{\"level\": \"note\", \"message\": {\"text\": ");
  json_string(o, fmt("interpreted %llu of %lld blocks%s, %d of %d warps in each; %s", (unsigned long long)a->blocks_run, (long long)a->blocks_total,
                     a->sampled ? " (sampled)" : "", a->warps_run_per_block, a->warps_per_block,
                     a->faults ? "a fault was found" : a->complete ? "every thread ran to its end: no fault for these inputs"
                                                                     : "no fault in the threads run; not a check of the launch ('carve run' runs every thread)"));
  fprintf(o, "}}]}]}]}\n");
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
  fprintf(o, "  %-20s %-7s %-6s %-26s %5s %10s %8s %s\n", "location", "space", "kind", "array", "bytes", "per req", "ideal", "index");
  for (int i = 0; i < a->nacc; i++) {
    AccessStat *s = &a->acc[i];
    if (!s->requests) continue;
    SrcLoc l = tok_loc(s->node->tok);
    double per = s->space == SPACE_GLOBAL ? (double)s->sectors / (double)s->requests : (double)s->wavefronts / (double)s->requests;
    double ideal = s->space == SPACE_GLOBAL ? ideal_sectors(s) : (double)s->ideal / (double)s->requests;
    fprintf(o, "  %-20s %-7s %-6s %-26.26s %5d %7.2f %s %8.2f %s [%s%s]\n", fmt("%d:%d", l.line, l.col), s->space == SPACE_GLOBAL ? "global" : "shared",
            kind_name(s->kind), s->array, s->size, per, s->space == SPACE_GLOBAL ? (!a->m || a->m->mem_rule == MEMRULE_SECTOR32 ? "sec" : "tr ") : "wf ", ideal, s->index ? s->index : "(not affine)",
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

int report(Analysis *a, const char *file, ReportFormat f, FILE *out) {
  Findings fs = {0};
  collect(a, &fs);
  if (f == FMT_JSON) json(a, &fs, file, out);
  else if (f == FMT_SARIF) sarif(a, &fs, file, out);
  else text(a, &fs, file, out);
  int worst = 0;
  for (int i = 0; i < fs.n; i++) if (fs.f[i].level > worst) worst = fs.f[i].level;
  free(fs.f);
  return worst;
}
