/* estimate_report: an EstimateResult and a Ranking as text and as JSON (docs/estimate-json.md).
 * Everything printed is in the structs; this file only formats it. */
#include "report.h"
#include <string.h>

static const char *class_name[CL_N] = {"int",       "fp32",      "fp64",   "sfu",       "convert",
                                       "global ld", "global st", "atomic", "shared ld", "shared st",
                                       "local",     "barrier",   "branch"};
static const char *limit_key[B_N] = {"issue",   "sfu",    "dram",   "l2",    "l1",
                                     "latency", "atomic", "blocks", "launch"};

/* occupancy bounds: a resource that does not bound the blocks (INT_MAX) shows as -1 / "-" */
static int bound(int b) { return b > 100000 ? -1 : b; }

static void json_limits(const double t[B_N], FILE *o) {
  for (int i = 0; i < B_N; i++) fprintf(o, "%s\"%s\": %.6g", i ? ", " : "", limit_key[i], t[i]);
}

static void json_resources(const EstimateResult *r, FILE *o) {
  const Resources *res = &r->res;
  if (!res->known) {
    fprintf(o, "{\"unknown\": ");
    json_string(o, res->why);
    fprintf(o, "}");
    return;
  }
  fprintf(
    o,
    "{\"registers\": %d, \"static_shared_bytes\": %d, \"stack_bytes\": %d, \"spill_store_bytes\": %d, \"spill_load_bytes\": %d, "
    "\"sass_instructions\": %d, \"compiler\": \"%s\"}",
    res->regs, res->smem, res->stack, res->spill_stores, res->spill_loads, res->instructions,
    r->compiler);
}

static void json_occupancy(const EstimateResult *r, FILE *o) {
  const Occupancy *oc = &r->oc;
  fprintf(
    o,
    ", \"threads_per_block\": %d, \"shared_bytes_per_block\": %d, \"occupancy\": {\"blocks_per_sm\": %d, \"warps_per_sm\": %d, "
    "\"occupancy\": %.4f, \"limit\": \"%s\", \"registers_counted\": %s, \"by_warps\": %d, \"by_blocks\": %d, \"by_registers\": %d, "
    "\"by_shared\": %d}, \"blocks\": %lld, \"waves\": %.3f, \"last_wave_fill\": %.3f",
    r->threads, r->smem, oc->blocks_per_sm, oc->warps_per_sm, oc->occupancy,
    occ_limit_name(oc->limit), r->res.known ? "true" : "false", oc->by_warps, oc->by_blocks,
    bound(oc->by_regs), bound(oc->by_smem), (long long)r->blocks, r->waves, r->tail);
}

static void json_counts(const EstimateResult *r, FILE *o) {
  const Estimate *e = &r->e;
  fprintf(o, ", \"per_thread\": {");
  for (int i = 0; i < CL_N; i++)
    fprintf(o, "%s\"%s\": %.3f", i ? ", " : "", class_name[i], r->per_thread[i]);
  fprintf(
    o,
    "}, \"counts_truncated\": %s, \"ryoo\": {\"instr\": %.1f, \"regions\": %.1f, \"long_regions\": %.1f, \"threads\": %.0f, "
    "\"efficiency\": %.4g, \"utilization\": %.4g, \"utilization_simple\": %.4g}",
    r->truncated ? "true" : "false", e->instr_per_thread, e->regions_per_thread,
    e->long_regions_per_thread, e->threads, e->efficiency, e->utilization, e->utilization_simple);
  fprintf(o, ", \"loops\": [");
  for (int i = 0; i < r->nloops; i++) {
    const EstimateLoop *l = &r->loops[i];
    fprintf(
      o,
      "%s{\"line\": %d, \"entries_per_thread\": %.4g, \"iterations_per_entry\": %.4g, \"unroll\": %.4g, \"static_trip\": %lld}",
      i ? ", " : "", l->line, l->entries_per_thread, l->iterations_per_entry, l->unroll,
      (long long)l->static_trip);
  }
  fprintf(o, "]");
}

static void json_time(const EstimateResult *r, FILE *o) {
  const Estimate *e = &r->e;
  const CuMAPz *cz = &r->cz;
  fprintf(
    o,
    ", \"cumapz\": {\"data_reuse\": %.4g, \"lat_hiding\": %.4g, \"bw_util\": %.4g, \"ch_skew\": %.4g, \"shm_eff\": %.4g, "
    "\"branch_eff\": %.4g, \"mpe\": %.4g}",
    cz->data_reuse, cz->lat_hiding, cz->bw_util, cz->ch_skew, cz->shm_eff, cz->branch_eff, cz->mpe);
  fprintf(
    o,
    ", \"estimate\": {\"seconds\": %.6g, \"bottleneck\": \"%s\", \"ceilings\": \"%s\", \"limits\": {",
    e->total, bottleneck_name(e->bottleneck), r->ceilings_source);
  json_limits(e->t, o);
  fprintf(
    o,
    "}, \"dram_bytes\": %.6g, \"l2_bytes\": %.6g, \"shared_bytes\": %.6g, \"warp_instructions\": %.6g, \"l1_wavefronts\": %.6g, "
    "\"roofline_seconds\": %.6g, \"hotspots\": [",
    e->dram_bytes, e->l2_bytes, e->shared_bytes, e->warp_instructions, e->l1_wavefronts,
    r->roofline);
  for (int i = 0; i < e->nhot; i++) {
    const struct Hotspot *h = &e->hot[i];
    fprintf(o, "%s{\"line\": %d, \"col\": %d, \"share\": %.4f, \"of\": \"%s\"", i ? ", " : "",
            h->line, h->col, h->share, h->measure);
    if (h->what) {
      fprintf(o, ", \"access\": ");
      json_string(o, h->what);
    }
    fprintf(o, "}");
  }
  fprintf(o, "]}}\n");
}

void estimate_print_json(const EstimateResult *r, FILE *o) {
  fprintf(o, "{\"file\": ");
  json_string(o, r->file);
  fprintf(o, ", \"kernel\": ");
  json_string(o, r->kernel);
  fprintf(o, ", \"arch\": \"%s\", \"resources\": ", r->m->name);
  json_resources(r, o);
  json_occupancy(r, o);
  json_counts(r, o);
  json_time(r, o);
}

static void text_launch(const EstimateResult *r, FILE *o) {
  const Resources *res = &r->res;
  const Occupancy *oc = &r->oc;
  const Machine *m = r->m;
  fprintf(o, "%s: %s on %s (%s)\n", r->file, r->kernel, m->name, m->long_name);
  if (res->known)
    fprintf(
      o,
      "  resources: %d registers per thread, %d bytes static shared, %d bytes stack, spills %d/%d bytes (store/load)%s%s\n",
      res->regs, res->smem, res->stack, res->spill_stores, res->spill_loads,
      res->instructions >= 0 ? fmt(", %d SASS instructions", res->instructions) : "",
      !strcmp(r->compiler, "--regs") ? " (--regs given)"
      : !strcmp(r->compiler, "nvcc") ? " (ptxas via nvcc: NVRTC not found)"
                                     : " (ptxas via NVRTC)");
  else fprintf(o, "  resources: unknown (%s); occupancy below ignores registers\n", res->why);
  fprintf(o, "  launch: %lld blocks of %d threads, %d bytes shared per block\n",
          (long long)r->blocks, r->threads, r->smem);
  fprintf(o, "  occupancy: %d blocks, %d warps per SM = %.0f%% of %d, limited by %s\n",
          oc->blocks_per_sm, oc->warps_per_sm, 100 * oc->occupancy, m->max_warps_per_sm,
          occ_limit_name(oc->limit));
  fprintf(o, "    bounds: warps %d, blocks %d, registers %s, shared memory %s\n", oc->by_warps,
          oc->by_blocks, bound(oc->by_regs) < 0 ? "-" : fmt("%d", oc->by_regs),
          bound(oc->by_smem) < 0 ? "-" : fmt("%d", oc->by_smem));
  if (r->per_wave)
    fprintf(o, "  waves: %.2f over %d SMs (%lld blocks per wave); the last wave is %.0f%% full\n",
            r->waves, m->sm_count, (long long)r->per_wave, 100 * r->tail);
}

static void text_counts(const EstimateResult *r, FILE *o) {
  const Estimate *e = &r->e;
  fprintf(o, "  per thread (%s%.0f sampled threads):", r->truncated ? "lower bounds, " : "",
          r->threads_sampled);
  for (int i = 0; i < CL_N; i++)
    if (r->lanes[i] > 0) fprintf(o, " %s %.1f", class_name[i], r->per_thread[i]);
  fprintf(
    o,
    "\n  Ryoo: Instr %.0f, Regions %.0f, LongRegions %.0f, Efficiency %.3g, Utilization %.3g (eq. 5.2), %.3g (eq. 6.1)\n",
    e->instr_per_thread, e->regions_per_thread, e->long_regions_per_thread, e->efficiency,
    e->utilization, e->utilization_simple);
  for (int i = 0; i < r->nloops; i++) {
    const EstimateLoop *l = &r->loops[i];
    fprintf(o, "  loop at line %d: %.4g iterations per entry (measured)", l->line,
            l->iterations_per_entry);
    if (l->unrolled == UNROLL_FULL) fprintf(o, ", constant trip count: fully unrolled\n");
    else if (l->unrolled == UNROLL_PARTIAL)
      fprintf(o, ", modelled as unrolled by %.0f (nvcc's heuristic)\n", l->unroll);
    else fprintf(o, ", not unrolled\n");
  }
}

static void text_time(const EstimateResult *r, FILE *o) {
  const Estimate *e = &r->e;
  const CuMAPz *cz = &r->cz;
  fprintf(
    o,
    "  CuMAPz: data_reuse %.3g, lat_hiding %.3g, bw_util %.3g, ch_skew %.3g, shm_eff %.3g, branch_eff %.3g, MPE %.3g\n",
    cz->data_reuse, cz->lat_hiding, cz->bw_util, cz->ch_skew, cz->shm_eff, cz->branch_eff, cz->mpe);
  fprintf(o, "  estimate: %.4g ms, bound by %s (ceilings from the %s)\n", e->total * 1e3,
          bottleneck_name(e->bottleneck), r->ceilings_source);
  for (int i = 0; i < e->nhot; i++) {
    const struct Hotspot *h = &e->hot[i];
    if (h->what)
      fprintf(o, "    where: %s:%d:%d: %s, %.0f%% of the %s\n", r->file, h->line, h->col, h->what,
              100 * h->share, h->measure);
    else
      fprintf(o, "    where: %s:%d: %.0f%% of the %s\n", r->file, h->line, 100 * h->share,
              h->measure);
  }
  fprintf(o, "    limits (ms):");
  for (int i = 0; i < B_N; i++) fprintf(o, " %s %.4g", limit_key[i], e->t[i] * 1e3);
  fprintf(
    o,
    "\n    predicted counters: DRAM %.3g MB, L2 %.3g MB, shared %.3g MB, %.3g warp instructions, %.3g L1 wavefronts\n",
    e->dram_bytes / 1e6, e->l2_bytes / 1e6, e->shared_bytes / 1e6, e->warp_instructions,
    e->l1_wavefronts);
  if (r->roofline > 0)
    fprintf(o, "    roofline: %.4g ms (%s); the estimate is %.2gx above it\n", r->roofline * 1e3,
            r->roofline_by, r->vs_roofline);
}

void estimate_print_text(const EstimateResult *r, FILE *o) {
  text_launch(r, o);
  text_counts(r, o);
  text_time(r, o);
}

void ranking_print_json(const Ranking *rk, FILE *o) {
  fprintf(o, "[");
  for (int i = 0; i < rk->n; i++) {
    const Estimate *e = &rk->e[i].r->e;
    fprintf(o, "%s{\"rank\": %d, \"file\": ", i ? ", " : "", i + 1);
    json_string(o, rk->e[i].r->file);
    fprintf(
      o,
      ", \"seconds\": %.6g, \"vs_best\": %.4g, \"bottleneck\": \"%s\", \"warps_per_sm\": %d, \"occupancy_limit\": \"%s\", "
      "\"warp_instructions\": %.6g, \"dram_bytes\": %.6g, \"l1_wavefronts\": %.6g, \"limits\": {",
      e->total, rk->e[i].vs_best, bottleneck_name(e->bottleneck), e->warps_per_sm,
      occ_limit_name((OccLimit)e->occ_limit), e->warp_instructions, e->dram_bytes,
      e->l1_wavefronts);
    json_limits(e->t, o);
    fprintf(o, "}}");
  }
  fprintf(o, "]\n");
}

/* why a variant is slower: its own bottleneck against the same limit in the fastest */
static void text_why(const RankEntry *v, const RankEntry *best, FILE *o) {
  const Estimate *e = &v->r->e, *b = &best->r->e;
  int lim = e->bottleneck;
  if (v->close) {
    fprintf(o, "  %s: within 5%% of %s (the model cannot tell them apart)\n", v->r->file,
            best->r->file);
    return;
  }
  fprintf(o, "  %s: %.2fx the time of %s; bound by %s: %.4g ms against %.4g ms in the best",
          v->r->file, v->vs_best, best->r->file, bottleneck_name(lim), e->t[lim] * 1e3,
          b->t[lim] * 1e3);
  if (e->warps_per_sm != b->warps_per_sm)
    fprintf(o, " (%d against %d resident warps per SM)", e->warps_per_sm, b->warps_per_sm);
  if (e->nhot > 0) {
    const struct Hotspot *h = &e->hot[0];
    if (h->what)
      fprintf(o, "; mostly line %d:%d, %s (%.0f%%)", h->line, h->col, h->what, 100 * h->share);
    else fprintf(o, "; mostly line %d (%.0f%%)", h->line, 100 * h->share);
  }
  fprintf(o, "\n");
}

void ranking_print_text(const Ranking *rk, FILE *o) {
  fprintf(
    o,
    "rank  estimate ms  x best  bottleneck                        warps/SM (limit)        file\n");
  for (int i = 0; i < rk->n; i++) {
    const Estimate *e = &rk->e[i].r->e;
    fprintf(o, "%4d  %11.4f  %6.2f  %-33s %3d (%-17s)  %s\n", i + 1, e->total * 1e3,
            rk->e[i].vs_best, bottleneck_name(e->bottleneck), e->warps_per_sm,
            occ_limit_name((OccLimit)e->occ_limit), rk->e[i].r->file);
  }
  fprintf(o, "why:\n");
  for (int i = 1; i < rk->n; i++) text_why(&rk->e[i], &rk->e[0], o);
}
