/* report: an analysis's findings (computed by src/model/findings.c: location, cost, remedy)
 * printed as text (gcc style, caret lines), JSON (docs/analyze-json.md) or SARIF 2.1.0 for
 * code-scanning tools. Prints only. */
#include "report.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void text_finding(Finding *f, FILE *out) {
  static const DiagLevel lv[] = {DIAG_NOTE, DIAG_NOTE, DIAG_WARNING, DIAG_ERROR};
  FILE *saved = diag_out;
  bool color = diag_color;
  diag_color = isatty(fileno(out)) && !getenv("NO_COLOR"); /* colour only on a terminal */
  diag_out = out;
  int w = diag_warnings, e = diag_errors;
  diag_at(lv[f->level], tok_loc(f->at->tok), "[%s] %s", f->category, f->msg);
  if (f->share >= 0)
    fprintf(out, "      = cost: about %.1f%% of the estimated kernel time (%s; %s)\n",
            100 * f->share, seconds_text(f->saving_s), f->limit ? f->limit : "no limit it loads");
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
  fprintf(
    o,
    ", \"grid\": [%lld, %lld, %lld], \"block\": [%lld, %lld, %lld], \"blocks_total\": %lld, \"blocks_run\": %llu, \"sampled\": %s, "
    "\"warps_per_block\": %d, \"warps_run_per_block\": %d, \"warps_truncated\": %llu, \"step_cap\": %llu, \"complete\": %s, \"faults\": %d, "
    "\"threads_per_instruction\": %.3f,\n \"accesses\": [",
    (long long)L->grid[0], (long long)L->grid[1], (long long)L->grid[2], (long long)L->block[0],
    (long long)L->block[1], (long long)L->block[2], (long long)a->blocks_total,
    (unsigned long long)a->blocks_run, a->sampled ? "true" : "false", a->warps_per_block,
    a->warps_run_per_block, (unsigned long long)a->warps_truncated, (unsigned long long)a->step_cap,
    a->complete ? "true" : "false", a->faults,
    a->warp_steps ? (double)a->lane_ops / (double)a->warp_steps : 0.0);
  int k = 0;
  for (int i = 0; i < a->nacc; i++) {
    AccessStat *s = &a->acc[i];
    if (!s->requests) continue;
    SrcLoc l = tok_loc(s->node->tok);
    fprintf(o, "%s\n  {\"file\": ", k++ ? "," : "");
    json_string(o, l.file ? l.file->name : file);
    fprintf(
      o, ", \"line\": %d, \"column\": %d, \"space\": \"%s\", \"kind\": \"%s\", \"array\": ", l.line,
      l.col, s->space == SPACE_GLOBAL ? "global" : "shared", access_kind_name(s->kind));
    json_string(o, s->array);
    fprintf(o, ", \"index\": ");
    if (s->index) json_string(o, s->index);
    else fprintf(o, "null");
    fprintf(o, ", \"class\": ");
    json_string(o, access_class(s));
    fprintf(o, ", \"bytes_per_thread\": %d, \"requests\": %llu, ", s->size,
            (unsigned long long)s->requests);
    if (s->space == SPACE_GLOBAL)
      fprintf(
        o,
        "\"%s\": %.4f, \"ideal_sectors_per_request\": %.2f, \"bytes_moved\": %llu, \"bytes_used\": %llu",
        !a->m || a->m->mem_rule == MEMRULE_SECTOR32 ? "sectors_per_request"
                                                    : "transactions_per_request",
        (double)s->sectors / (double)s->requests, access_ideal_sectors(s),
        (unsigned long long)s->moved, (unsigned long long)s->used);
    else
      fprintf(o, "\"wavefronts_per_request\": %.4f, \"ideal_wavefronts_per_request\": %.4f",
              (double)s->wavefronts / (double)s->requests, (double)s->ideal / (double)s->requests);
    bool whole;
    double reuse = access_reuse(s, &whole);
    fprintf(o, ", \"reads_per_element_in_block\": %.3f, \"reuse_over\": \"%s\", \"exact\": %s}",
            reuse, whole ? "whole block" : "sampled warps", access_exact(s) ? "true" : "false");
  }
  fprintf(o, "],\n \"warps_truncated\": %llu, \"unreached\": [",
          (unsigned long long)a->warps_truncated);
  for (int i = 0; i < a->nunreached; i++) {
    fprintf(o, "%s", i ? ", " : "");
    json_string(o, a->unreached[i]);
  }
  fprintf(o, "],\n \"branches\": [");
  k = 0;
  for (int i = 0; i < a->nbr; i++) {
    BranchStat *b = &a->br[i];
    SrcLoc l = tok_loc(b->node->tok);
    fprintf(
      o,
      "%s\n  {\"line\": %d, \"column\": %d, \"thread_dependent\": %s, \"evaluations\": %llu, \"divergent\": %llu, "
      "\"divergent_fraction\": %.4f, \"mean_active_lanes\": %.3f}",
      k++ ? "," : "", l.line, l.col, b->thread_dependent ? "true" : "false",
      (unsigned long long)b->evals, (unsigned long long)b->divergent,
      b->evals ? (double)b->divergent / (double)b->evals : 0.0,
      b->evals ? (double)b->active / (double)b->evals : 0.0);
  }
  fprintf(o, "],\n \"findings\": [");
  static const char *lv[] = {"note", "note", "warning", "error"};
  for (int i = 0; i < fs->n; i++) {
    Finding *f = &fs->f[i];
    SrcLoc l = tok_loc(f->at->tok);
    fprintf(
      o,
      "%s\n  {\"level\": \"%s\", \"category\": \"%s\", \"line\": %d, \"column\": %d, \"message\": ",
      i ? "," : "", lv[f->level], f->category, l.line, l.col);
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
  if (rc && rc->ok)
    fprintf(o, ",\n \"estimate\": {\"seconds\": %.4g, \"bottleneck\": \"%s\"}", rc->e.total,
            bottleneck_name(rc->e.bottleneck));
  fprintf(o, "}\n");
}

/* the rules: what each category means and its remedies (docs/analyze-json.md#rules). No public
 * home page is known for carve, so helpUri is a path relative to the source tree's root (SARIF
 * allows a URI reference) and the driver carries no informationUri. */
static const struct Rule {
  const char *id, *name, *short_text, *full, *help;
} rules[] = {
  {"coalescing", "UncoalescedAccess",
   "A global access moves more 32-byte sectors than the bytes it uses need",
   "A warp's global load or store is served in 32-byte sectors (sm_90; half-warp transactions on compute capability 1.x). When "
   "neighbouring threads do not touch neighbouring addresses, each request moves sectors whose bytes no thread uses.",
   "Make threadIdx.x index the fastest-varying dimension, load a tile through shared memory with coalesced reads (Yang et al. 3.3), "
   "align each warp's segment, or sort indirect indices so neighbouring threads touch neighbouring elements."},
  {"bank-conflict", "SharedBankConflict",
   "A shared-memory access needs more wavefronts than a conflict-free one",
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
  {"partition-camping", "PartitionCamping",
   "The blocks running together send their requests to few memory partitions",
   "On machines whose memory partitions are interleaved linearly (GT200), blocks of one wave that walk columns at a large power-of-two "
   "stride all hit one partition.",
   "Reorder blocks diagonally, or offset each row by one partition width (Yang et al. 3.7; Ruetsch and Micikevicius 2009)."},
  {"occupancy", "LowOccupancy", "Fewer than half the warps an SM can hold are resident",
   "Resident warps hide memory latency; the limit is the one of cuda_occupancy.h for sm_90 (registers not counted by analyze).",
   "Use less shared memory per block, or larger blocks (128-512 threads)."},
  {"launch", "LaunchShape", "The launch leaves lanes or SMs idle",
   "A block that is not a multiple of 32 threads runs a partial last warp; a grid with fewer blocks than SMs leaves SMs idle.",
   "Use a multiple of 32 threads per block, and at least one block per SM (several, to hide latency)."},
  {"fault", "KernelFault",
   "A thread the analyzer ran faulted (out of bounds, a race, a divergent barrier...)",
   "The interpreter checks every access of the threads it runs; a fault found there is a bug in the kernel for these inputs, and "
   "the analysis stops at it (exit status 1).",
   "Fix the access the message names (a missing bounds check, a missing __syncthreads); carve run checks every thread."},
};
enum { NRULES = sizeof rules / sizeof *rules };

static void sarif_driver(FILE *o) {
  fprintf(
    o,
    "{\"$schema\": \"https://json.schemastore.org/sarif-2.1.0.json\", \"version\": \"2.1.0\", \"runs\": [{\"tool\": {\"driver\": "
    "{\"name\": \"carve\", \"version\": \"%s\", \"rules\": [",
    CARVE_VERSION);
  for (int i = 0; i < NRULES; i++) {
    const struct Rule *r = &rules[i];
    fprintf(o, "%s\n  {\"id\": \"%s\", \"name\": \"%s\", \"shortDescription\": {\"text\": ",
            i ? "," : "", r->id, r->name);
    json_string(o, r->short_text);
    fprintf(o, "}, \"fullDescription\": {\"text\": ");
    json_string(o, r->full);
    fprintf(o, "}, \"help\": {\"text\": ");
    json_string(o,
                fmt("Remedy: %s See docs/analyze-json.md (rule %s) and carve(1).", r->help, r->id));
    fprintf(o, "}, \"helpUri\": \"docs/analyze-json.md#rule-%s\"}", r->id);
  }
  fprintf(o, "]}}");
}

static int rule_index(const char *id) {
  for (int i = 0; i < NRULES; i++)
    if (!strcmp(rules[i].id, id)) return i;
  return 0;
}

static void sarif(Analysis *a, Findings *fs, const char *file, FILE *o) {
  sarif_driver(o);
  fprintf(o, ", \"results\": [");
  static const char *lv[] = {"note", "note", "warning", "error"};
  for (int i = 0; i < fs->n; i++) {
    Finding *f = &fs->f[i];
    SrcLoc l = tok_loc(f->at->tok);
    fprintf(
      o, "%s\n {\"ruleId\": \"%s\", \"ruleIndex\": %d, \"level\": \"%s\", \"message\": {\"text\": ",
      i ? "," : "", f->category, rule_index(f->category), lv[f->level]);
    json_string(o, fmt("%s (remedy: %s)", f->msg, f->remedy ? f->remedy : "-"));
    fprintf(o, "}, \"locations\": [{\"physicalLocation\": {\"artifactLocation\": {\"uri\": ");
    json_string(o, l.file ? l.file->name : file);
    fprintf(o, "}, \"region\": {\"startLine\": %d, \"startColumn\": %d}}}]", l.line, l.col);
    /* SARIF's rank is a priority from 0 to 100: the share of the estimated time */
    if (f->share >= 0)
      fprintf(o, ", \"rank\": %.1f, \"properties\": {\"saving_seconds\": %.4g, \"share\": %.4f}",
              100 * f->share, f->saving_s, f->share);
    fprintf(o, "}");
  }
  /* the faults found: errors, each where it happened and by which thread */
  for (int i = 0; i < a->nfault; i++) {
    const Fault *f = &a->fault_rec[i];
    SrcLoc l = f->at ? tok_loc(f->at->tok) : (SrcLoc){0};
    fprintf(
      o,
      "%s\n {\"ruleId\": \"fault\", \"ruleIndex\": %d, \"level\": \"error\", \"message\": {\"text\": ",
      i || fs->n ? "," : "", rule_index("fault"));
    json_string(o, f->message);
    fprintf(o, "}, \"locations\": [{\"physicalLocation\": {\"artifactLocation\": {\"uri\": ");
    json_string(o, l.file ? l.file->name : file);
    fprintf(
      o,
      "}, \"region\": {\"startLine\": %d, \"startColumn\": %d}}}], \"properties\": {\"kind\": \"%s\"",
      l.line > 0 ? l.line : 1, l.col > 0 ? l.col : 1, fault_kind_name(f->kind));
    if (f->in_kernel)
      fprintf(o, ", \"block\": [%lld, %lld, %lld]", (long long)f->block[0], (long long)f->block[1],
              (long long)f->block[2]);
    if (f->lane >= 0)
      fprintf(o, ", \"thread\": [%u, %u, %u]", f->thread[0], f->thread[1], f->thread[2]);
    fprintf(o, "}}");
  }
  /* what ran: a code-scanning tool must not read "no results" as "no faults" */
  fprintf(
    o,
    "], \"invocations\": [{\"executionSuccessful\": true, \"properties\": {\"sampled\": %s, \"complete\": %s}, "
    "\"toolExecutionNotifications\": [{\"level\": \"note\", \"message\": {\"text\": ",
    a->sampled ? "true" : "false", a->complete ? "true" : "false");
  json_string(
    o,
    fmt(
      "interpreted %llu of %lld blocks%s, %d of %d warps in each; %s",
      (unsigned long long)a->blocks_run, (long long)a->blocks_total, a->sampled ? " (sampled)" : "",
      a->warps_run_per_block, a->warps_per_block,
      a->faults ? "a fault was found"
      : a->complete
        ? "every thread ran to its end: no fault for these inputs"
        : "no fault in the threads run; not a check of the launch ('carve run' runs every thread)"));
  fprintf(o, "}}");
  /* the accesses no thread run reached: not checked for faults, not measured */
  for (int i = 0; i < a->nunreached; i++) {
    int line = 0, col = 0;
    sscanf(a->unreached[i], "%d:%d", &line, &col);
    fprintf(o, ",\n  {\"level\": \"note\", \"message\": {\"text\": ");
    json_string(
      o, fmt("not reached by the threads run (not checked, not measured): %s",
             strchr(a->unreached[i], ' ') ? strchr(a->unreached[i], ' ') + 1 : a->unreached[i]));
    fprintf(o, "}, \"locations\": [{\"physicalLocation\": {\"artifactLocation\": {\"uri\": ");
    json_string(o, a->L && a->L->kernel ? tok_loc(a->L->kernel->tok).file->name : file);
    fprintf(o, "}, \"region\": {\"startLine\": %d, \"startColumn\": %d}}}]}", line > 0 ? line : 1,
            col > 0 ? col : 1);
  }
  fprintf(o, "]}]}]}\n");
}

void sarif_input_error(FILE *o, const char *file, const DiagCapture *c) {
  sarif_driver(o);
  fprintf(
    o,
    ", \"results\": [], \"invocations\": [{\"executionSuccessful\": false, \"exitCode\": 2, \"toolExecutionNotifications\": [");
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
      fprintf(o, "}, \"region\": {\"startLine\": %d, \"startColumn\": %d}}}]", d->line,
              d->col > 0 ? d->col : 1);
    }
    fprintf(o, "}");
  }
  if (!k) {
    /* nothing located was said (an option, a missing file): still a failed run, never an empty
     * log */
    fprintf(o, "\n  {\"level\": \"error\", \"message\": {\"text\": ");
    json_string(
      o, fmt("carve analyze could not analyze '%s' (see standard error)", file ? file : "?"));
    fprintf(o, "}}");
  }
  fprintf(o, "]}]}]}\n");
}

static void text(Analysis *a, Findings *fs, const char *file, FILE *o) {
  Launch *L = a->L;
  /* say exactly what ran: a fault is only ever searched for in these threads */
  fprintf(
    o,
    "%s: %s<<<(%lld,%lld,%lld), (%lld,%lld,%lld)>>> on %s: interpreted %llu of %lld blocks%s, %d of %d warps in each%s",
    file, L->kernel->name, (long long)L->grid[0], (long long)L->grid[1], (long long)L->grid[2],
    (long long)L->block[0], (long long)L->block[1], (long long)L->block[2], a->m ? a->m->name : "?",
    (unsigned long long)a->blocks_run, (long long)a->blocks_total, a->sampled ? " (sampled)" : "",
    a->warps_run_per_block, a->warps_per_block,
    a->warps_run_per_block < a->warps_per_block ? " (the first, a middle, the last)" : "");
  if (a->warps_truncated)
    fprintf(o, ", %llu warps stopped at the cap of %llu warp-steps",
            (unsigned long long)a->warps_truncated, (unsigned long long)a->step_cap);
  fprintf(o, "\n");
  if (a->faults) fprintf(o, "  faults: %d (above)\n", a->faults);
  else if (a->complete) fprintf(o, "  faults: none (every thread ran to its end)\n");
  else
    fprintf(
      o,
      "  faults: none in the threads run; not a check of the launch ('carve run' runs every thread)\n");
  bool sm90 = !a->m || a->m->mem_rule == MEMRULE_SECTOR32;
  if (a->nacc)
    fprintf(
      o,
      "  per request: %s per warp request (global), shared-memory wavefronts per warp request (shared); ideal: the fewest the bytes used need\n",
      sm90 ? "32-byte sectors" : "memory transactions (the half-warp rule)");
  fprintf(o, "  %-20s %-7s %-6s %-26s %5s %-19s %7s %s\n", "location", "space", "kind", "array",
          "bytes", "per request", "ideal", "index");
  for (int i = 0; i < a->nacc; i++) {
    AccessStat *s = &a->acc[i];
    if (!s->requests) continue;
    SrcLoc l = tok_loc(s->node->tok);
    double per = s->space == SPACE_GLOBAL ? (double)s->sectors / (double)s->requests
                                          : (double)s->wavefronts / (double)s->requests;
    double ideal =
      s->space == SPACE_GLOBAL ? access_ideal_sectors(s) : (double)s->ideal / (double)s->requests;
    fprintf(o, "  %-20s %-7s %-6s %-26.26s %5d %7.2f %-11s %7.2f %s [%s%s]\n",
            fmt("%d:%d", l.line, l.col), s->space == SPACE_GLOBAL ? "global" : "shared",
            access_kind_name(s->kind), s->array, s->size, per,
            s->space == SPACE_GLOBAL ? (sm90 ? "sectors" : "transactions") : "wavefronts", ideal,
            s->index ? s->index : "(not affine)", access_class(s),
            access_exact(s) ? ", exact" : ", sampled");
  }
  if (a->warp_steps)
    fprintf(o, "  threads per instruction (mean active lanes): %.2f of 32\n",
            (double)a->lane_ops / (double)a->warp_steps);
  if (a->warps_truncated)
    fprintf(
      o,
      "  sampled: %llu warps stopped after their share of the step budget (long loops are measured on their first iterations)\n",
      (unsigned long long)a->warps_truncated);
  for (int i = 0; i < a->nunreached; i++)
    fprintf(o, "  not reached in the sampled run: %s\n", a->unreached[i]);
  for (int i = 0; i < fs->n; i++) text_finding(&fs->f[i], o);
  if (!fs->n) fprintf(o, "  no findings\n");
}

int report(Analysis *a, const char *file, ReportFormat f, FILE *out) {
  return report_costed(a, NULL, file, f, out);
}

int report_costed(Analysis *a, const ReportCost *rc, const char *file, ReportFormat f, FILE *out) {
  Findings fs = findings_collect(a, rc);
  if (f == FMT_JSON) json(a, rc, &fs, file, out);
  else if (f == FMT_SARIF) sarif(a, &fs, file, out);
  else text(a, &fs, file, out);
  int worst = 0;
  for (int i = 0; i < fs.n; i++)
    if (fs.f[i].level > worst) worst = fs.f[i].level;
  free(fs.f);
  return worst;
}
