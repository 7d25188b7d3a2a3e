/* bench: build the harness with nvcc, run it on the GPU, verify its outputs against the
 * interpreter, and read Nsight Compute's counters. */
#include "../json.h"
#include "gpu.h"
#include "../report/report.h"
#include "../model/model.h"
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static char *slurp(const char *path) {
  size_t n;
  char *s = read_file(path, &n);
  if (!s) return arena_strdup("");
  char *r = arena_strdup(s);
  free(s);
  return r;
}

/* ---- verification ---- */
static bool cmp_json_first; /* reset per verification, for the commas between entries */

BufferCompare compare_gpu_buffer(const Buffer *b, const unsigned char *gpu,
                                 const unsigned char *mask, double tol) {
  Type *t = b->elem_ty;
  Type *comp = t->kind == TY_STRUCT ? t->members->ty : t;
  size_t cs = (size_t)comp->size, n = b->bytes / cs;
  double num = 0, den = 0, max_ulp = 0;
  size_t bad = 0, first_bad = (size_t)-1;
  int64_t cmp = 0;
  for (size_t i = 0; i < n; i++) {
    if (mask && !mask[i * cs]) continue;
    cmp++;
    const unsigned char *c = b->data + i * cs, *g = gpu + i * cs;
    if (!is_flonum(comp) && t->is_half) {
      /* __half/__half2: bit for bit, except that any NaN equals any NaN (CUDA does not define
       * which NaN an operation on a NaN gives: the GPU's differs from the interpreter's) */
      for (size_t k = 0; k + 2 <= cs; k += 2) {
        uint16_t hx = (uint16_t)(c[k] | c[k + 1] << 8), hy = (uint16_t)(g[k] | g[k + 1] << 8);
        bool nx = (hx & 0x7c00) == 0x7c00 && (hx & 0x3ff),
             ny = (hy & 0x7c00) == 0x7c00 && (hy & 0x3ff);
        if (nx && ny) continue;
        if (hx != hy) {
          if (!bad++) first_bad = i;
          break;
        }
      }
      continue;
    }
    if (!is_flonum(comp)) {
      if (memcmp(c, g, cs)) {
        if (!bad++) first_bad = i;
      }
      continue;
    }
    double x, y;
    if (comp->kind == TY_FLOAT) {
      float fx, fy;
      memcpy(&fx, c, 4);
      memcpy(&fy, g, 4);
      x = fx;
      y = fy;
      int32_t ix, iy;
      memcpy(&ix, c, 4);
      memcpy(&iy, g, 4);
      if (ix < 0) ix = INT32_MIN - ix;
      if (iy < 0) iy = INT32_MIN - iy;
      double u = fabs((double)ix - (double)iy);
      if (u > max_ulp) max_ulp = u;
    } else {
      memcpy(&x, c, 8);
      memcpy(&y, g, 8);
    }
    if (isnan(x) != isnan(y) || (isnan(y) && !isnan(x))) {
      if (!bad++) first_bad = i;
      continue;
    }
    if (isnan(x)) continue;
    num += (x - y) * (x - y);
    den += x * x;
  }
  BufferCompare r = {.compared = cmp,
                     .mismatches = bad,
                     .first_bad = first_bad,
                     .max_ulp = max_ulp,
                     .exact = !is_flonum(comp)};
  r.rel_l2 = den > 0 ? sqrt(num / den) : sqrt(num);
  r.ok = bad == 0 && (r.exact || r.rel_l2 <= tol);
  return r;
}

/* the comma before the n-th entry of the verify list (reset per verification) */
static const char *json_sep(void) {
  static int nth;
  if (!cmp_json_first) nth = 0;
  cmp_json_first = true;
  return nth++ ? ", " : "";
}

static int compare_buffer(Buffer *b, const unsigned char *gpu, const unsigned char *mask,
                          double tol, bool json, int *compared) {
  BufferCompare c = compare_gpu_buffer(b, gpu, mask, tol);
  int cmp = (int)c.compared;
  double rel = c.rel_l2, max_ulp = c.max_ulp;
  size_t bad = c.mismatches, first_bad = c.first_bad;
  bool ok = c.ok;
  Type *comp = b->elem_ty->kind == TY_STRUCT ? b->elem_ty->members->ty : b->elem_ty;
  *compared = cmp;
  if (!json) {
    if (is_flonum(comp))
      printf(
        "  verify %s: %s (%d elements, relative L2 error %.3g, tolerance %.3g, max %.0f ulp)\n",
        b->name, ok ? "ok" : "FAILED", cmp, rel, tol, max_ulp);
    else printf("  verify %s: %s (%d elements, exact)\n", b->name, ok ? "ok" : "FAILED", cmp);
    if (bad) printf("    first difference at element %zu (%zu differ)\n", first_bad, bad);
  } else {
    printf(
      "%s{\"buffer\": \"%s\", \"ok\": %s, \"compared\": %d, \"rel_l2\": %.6g, \"max_ulp\": %.0f, \"mismatches\": %zu}",
      json_sep(), b->name, ok ? "true" : "false", cmp, rel, max_ulp, bad);
  }
  return ok ? 0 : 1;
}

static int verify(Launch *L, const char *outdir, const BenchOptions *o) {
  LaunchSpec *s = find_spec(L->prog, L->kernel->name);
  double tol = s && s->rel_tol > 0 ? s->rel_tol : 1e-5;
  int64_t total = L->grid[0] * L->grid[1] * L->grid[2];
  int want = o->verify_blocks > 0 ? o->verify_blocks : 64;
  /* first, last and evenly spread blocks, deterministic */
  int64_t *blocks = xmalloc(sizeof(int64_t) * (size_t)want);
  bool sampled = total > want;
  Written v;
  written_init(&v, L);
  if (sampled) {
    v.blocks = blocks;
    v.nblocks = launch_sample_blocks(total, want, blocks);
  }
  Hooks h = written_hooks(&v);
  cmp_json_first = false;
  RunOptions ro = {.hooks = &h};
  RunStats st;
  int rc = interp_run(L, &ro, &st);
  int result = 0;
  if (rc) {
    fprintf(stderr, "carve bench: the interpreter found a fault; not comparing\n");
    result = 1;
  }
  if (!o->json)
    printf("  interpreter: %s%llu of %lld blocks, %.2f s\n", sampled ? "sampled " : "all ",
           (unsigned long long)st.blocks_run, (long long)total, st.seconds);
  for (int i = 1; i < L->nbufs && !rc; i++) {
    Buffer *b = &L->bufs[i];
    if (!b->out) continue;
    char *path = fmt("%s/%s.bin", outdir, b->name);
    size_t n;
    unsigned char *gpu = (unsigned char *)read_file(path, &n);
    if (!gpu || n != b->bytes) {
      fprintf(stderr, "carve bench: the harness did not write %s\n", path);
      free(gpu);
      result = 2;
      continue;
    }
    if (sampled && v.atomic[i]) {
      if (!o->json)
        printf(
          "  verify %s: unknown (updated by atomics from every block; sampling cannot check it: use --verify-blocks %lld)\n",
          b->name, (long long)total);
      else
        printf(
          "%s{\"buffer\": \"%s\", \"ok\": null, \"unknown\": \"updated by atomics from every block: sampling cannot check it (--verify-blocks %lld)\"}",
          json_sep(), b->name, (long long)total);
      free(gpu);
      continue;
    }
    int cmp;
    if (compare_buffer(b, gpu, sampled ? v.bytes[i] : NULL, tol, o->json, &cmp))
      result = result ? result : 1;
    free(gpu);
  }
  written_free(&v);
  free(blocks);
  return result;
}

/* ---- Nsight Compute ---- */
static const char *ncu_metrics[][2] = {
  {"gpu__time_duration.sum", "duration_ns"},
  {"l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", "global_load_sectors"},
  {"l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum", "global_load_requests"},
  {"l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum", "global_store_sectors"},
  {"l1tex__t_requests_pipe_lsu_mem_global_op_st.sum", "global_store_requests"},
  {"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum", "shared_load_wavefronts"},
  {"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum", "shared_store_wavefronts"},
  {"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum", "shared_load_bank_conflicts"},
  {"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum", "shared_store_bank_conflicts"},
  {"smsp__sass_inst_executed_op_shared_ld.sum", "shared_load_instructions"},
  {"smsp__sass_inst_executed_op_shared_st.sum", "shared_store_instructions"},
  {"smsp__thread_inst_executed_per_inst_executed.ratio", "threads_per_instruction"},
  {"sm__warps_active.avg.pct_of_peak_sustained_active", "achieved_occupancy_pct"},
  {"dram__bytes_read.sum", "dram_bytes_read"},
  {"dram__bytes_write.sum", "dram_bytes_write"},
  /* for carve estimate's terms; optional: older ncu versions or other chips may lack them */
  {"smsp__inst_executed.sum", "warp_instructions"},
  {"smsp__issue_active.avg.pct_of_peak_sustained_active", "issue_active_pct"},
  {"lts__t_sectors_srcunit_tex.sum", "l2_sectors_from_l1"},
  {"sm__cycles_elapsed.avg", "sm_cycles"},
  {"smsp__warp_issue_stalled_long_scoreboard_per_warp_active.pct", "stall_long_scoreboard_pct"},
  {"smsp__warp_issue_stalled_barrier_per_warp_active.pct", "stall_barrier_pct"},
  {"smsp__warp_issue_stalled_mio_throttle_per_warp_active.pct", "stall_mio_throttle_pct"},
  {"smsp__warp_issue_stalled_lg_throttle_per_warp_active.pct", "stall_lg_throttle_pct"},
  {"smsp__warp_issue_stalled_short_scoreboard_per_warp_active.pct", "stall_short_scoreboard_pct"},
  {"smsp__warp_issue_stalled_wait_per_warp_active.pct", "stall_wait_pct"},
  {"smsp__warp_issue_stalled_math_pipe_throttle_per_warp_active.pct", "stall_math_throttle_pct"},
};
#define N_METRICS (sizeof ncu_metrics / sizeof *ncu_metrics)
#define N_REQUIRED_METRICS 15 /* the rest are asked for, and dropped if ncu does not know them: */
#define N_COMMON_METRICS 19   /* first the stall reasons, then all */

#define csv_metric ncu_csv_metric /* report/counters.c: one reader of ncu's CSV */

/* every counter carve predicts beside its measurement: the launch's inputs as they were before
 * any run (fresh), the machine whose name the device reports, the calibrated ceilings */
/* the buffers as the spec makes them (verification ran the launch on them since) */
static bool fresh_inputs(Launch *L) {
  for (int i = 1; i < L->nbufs; i++) {
    Buffer *b = &L->bufs[i];
    if (!b->spec) continue;
    bool out = b->out;
    free(b->data);
    b->data = NULL;
    if (buffer_init(b, b->spec)) return false;
    b->out = out;
  }
  return true;
}

static void compare_counters(const char *csv, Launch *L, const BenchOptions *o,
                             const char *device) {
  const Machine *m = machine_find(device && strstr(device, "H200") ? "h200" : "h100");
  const char *cal = calibration_path(o->calibration);
  Ceilings ce = ceilings_for(m, access(cal, R_OK) == 0 ? cal : NULL);
  Resources r = kernel_resources(L->prog, L->kernel, fmt("sm_%d%d", m->cc_major, m->cc_minor));
  CounterPrediction p;
  if (!fresh_inputs(L) || counters_predict(L, m, &ce, r.known ? r.regs : 0, &p)) {
    fprintf(stderr, "carve bench: the model could not predict this launch's counters\n");
    return;
  }
  double meas[CT_N];
  bool have[CT_N];
  counters_measured(csv, meas, have);
  CounterCheck k[CT_N];
  int flagged = counters_compare(&p, meas, have, k);
  counters_print(k, &p, o->json, stdout);
  if (flagged && !o->json)
    printf("  %d counter%s beyond tolerance (%s)\n", flagged, flagged == 1 ? "" : "s", m->name);
}

static int run_ncu(const char *ncu, const char *exe, const char *dir, Launch *L,
                   const BenchOptions *o, const char *device) {
  char *out = fmt("%s/ncu.csv", dir), *err = fmt("%s/ncu.err", dir);
  int rc = 0;
  char *csv = "";
  static const size_t tiers[] = {N_METRICS, N_COMMON_METRICS, N_REQUIRED_METRICS};
  for (int t = 0; t < 3; t++) {
    size_t n = tiers[t];
    Buf m = {0};
    for (size_t i = 0; i < n; i++) buf_printf(&m, "%s%s", i ? "," : "", ncu_metrics[i][0]);
    char *argv[] = {(char *)ncu,
                    "--csv",
                    "--clock-control",
                    "none",
                    "--metrics",
                    m.s,
                    "-k",
                    fmt("regex:^%s$", L->kernel->name),
                    "-c",
                    "1",
                    (char *)exe,
                    "0",
                    NULL};
    rc = run_program(argv, out, err, o->timeout_s > 0 ? o->timeout_s * 4 : 600);
    buf_free(&m);
    csv = slurp(out);
    if (rc == 0 && strstr(csv, "\"Metric Name\"")) break;
    if (n > N_REQUIRED_METRICS)
      fprintf(stderr, "carve bench: ncu refused some optional metrics; retrying with fewer\n");
  }
  if (rc != 0 || !strstr(csv, "\"Metric Name\"")) {
    fprintf(stderr, "carve bench: ncu failed (exit %d): %s\n", rc, slurp(err));
    return 2;
  }
  double v[N_METRICS];
  bool have[N_METRICS];
  for (size_t i = 0; i < N_METRICS; i++) have[i] = csv_metric(csv, ncu_metrics[i][0], &v[i]);
  if (o->json) {
    printf(", \"ncu\": {");
    int k = 0;
    for (size_t i = 0; i < N_METRICS; i++)
      if (have[i]) printf("%s\"%s\": %.6g", k++ ? ", " : "", ncu_metrics[i][1], v[i]);
    printf("}");
  } else {
    printf("  Nsight Compute (one launch):\n");
    for (size_t i = 0; i < N_METRICS; i++)
      if (have[i]) printf("    %-30s %14.6g   (%s)\n", ncu_metrics[i][1], v[i], ncu_metrics[i][0]);
      else printf("    %-30s %14s   (%s)\n", ncu_metrics[i][1], "n/a", ncu_metrics[i][0]);
    if (have[1] && have[2] && v[2] > 0)
      printf("    global load sectors per request: %.2f\n", v[1] / v[2]);
    if (have[3] && have[4] && v[4] > 0)
      printf("    global store sectors per request: %.2f\n", v[3] / v[4]);
    if (have[5] && have[9] && v[9] > 0)
      printf("    shared load wavefronts per instruction: %.2f\n", v[5] / v[9]);
    if (have[6] && have[10] && v[10] > 0)
      printf("    shared store wavefronts per instruction: %.2f\n", v[6] / v[10]);
  }
  compare_counters(csv, L, o, device);
  return 0;
}

static double min_bytes(Launch *L) {
  double b = 0;
  for (int i = 1; i < L->nbufs; i++)
    b += (double)L->bufs[i].bytes *
         (L->bufs[i].out && L->bufs[i].spec && L->bufs[i].spec->init != INIT_ZEROS ? 2 : 1);
  return b;
}

int bench_run(Launch *L, const char *file, const BenchOptions *o) {
  Buf src = {0};
  harness_generate(&src, L, &o->h);
  bool cublas = o->h.baseline && harness_needs_cublas(L);
  if (o->emit_dir) {
    if (!make_dirs(o->emit_dir)) {
      fprintf(stderr, "carve bench: cannot create %s: %s\n", o->emit_dir, strerror(errno));
      buf_free(&src);
      return 2;
    }
    char *hp = fmt("%s/harness.cu", o->emit_dir), *bp = fmt("%s/build.sh", o->emit_dir);
    /* both files or neither, each written whole (base's output files) */
    char *script = fmt(
      "#!/bin/sh\n# build and run the harness for %s (%s)\ncd \"$(dirname \"$0\")\"\n%s\n# ./harness [REPS [OUTDIR [FLUSH_L2]]]\n",
      L->kernel->name, file, harness_build_line("harness.cu", "harness", o->arch, cublas));
    OutFile *hf = out_begin(hp), *bf = hf ? out_begin(bp) : NULL;
    if (!hf || !bf || !out_write(hf, src.s, src.len) || !out_write(bf, script, strlen(script)) ||
        !out_commit_all()) {
      out_abort_all();
      buf_free(&src);
      return 2;
    }
    if (chmod(bp, 0755)) {
      fprintf(stderr, "carve bench: cannot make %s executable: %s\n", bp, strerror(errno));
      buf_free(&src);
      return 2;
    }
    printf("wrote %s and %s\n", hp, bp);
    buf_free(&src);
    return 0;
  }
  char *nvcc = find_program("nvcc");
  if (!nvcc) {
    fprintf(
      stderr,
      "carve bench: no CUDA toolkit: nvcc not found (PATH, /usr/local/cuda/bin or $CARVE_NVCC); "
      "use --emit DIR to write the harness and build it on a GPU machine\n");
    buf_free(&src);
    return 3;
  }
  char tmpl[] = "/tmp/carve-bench-XXXXXX";
  char *dir = mkdtemp(tmpl);
  if (!dir) {
    perror("carve bench: mkdtemp");
    buf_free(&src);
    return 2;
  }
  char *hp = fmt("%s/harness.cu", dir), *exe = fmt("%s/harness", dir), *outdir = fmt("%s/out", dir);
  mkdir(outdir, 0777);
  FILE *f = fopen(hp, "w");
  if (!f || fwrite(src.s, 1, src.len, f) != src.len || fclose(f)) {
    fprintf(stderr, "carve bench: cannot write %s\n", hp);
    buf_free(&src);
    return 2;
  }
  buf_free(&src);
  char *argv_nvcc[] = {nvcc,
                       "-O3",
                       fmt("-arch=%s", o->arch ? o->arch : "sm_90"),
                       "-lineinfo",
                       "-o",
                       exe,
                       hp,
                       cublas ? "-lcublas" : NULL,
                       NULL};
  int rc = run_program(argv_nvcc, fmt("%s/nvcc.out", dir), fmt("%s/nvcc.err", dir), 300);
  if (rc != 0) {
    fprintf(stderr, "carve bench: nvcc failed (exit %d) on %s:\n%s", rc, hp,
            slurp(fmt("%s/nvcc.err", dir)));
    return 2;
  }
  char *reps = fmt("%d", o->h.reps > 0 ? o->h.reps : 20);
  char *argv_h[] = {exe, reps, outdir, o->h.flush_l2 ? "1" : "0", NULL};
  rc = run_program(argv_h, fmt("%s/run.out", dir), fmt("%s/run.err", dir),
                   o->timeout_s > 0 ? o->timeout_s : 120);
  char *res = slurp(fmt("%s/run.out", dir));
  char *err = slurp(fmt("%s/run.err", dir));
  if (rc == 3) {
    fprintf(stderr, "carve bench: no CUDA GPU available (%s)\n",
            err[0] ? strtok(err, "\n") : "cudaGetDeviceCount found none");
    return 3;
  }
  if (rc == 124) {
    fprintf(stderr, "carve bench: %s: the kernel did not finish within %d s (hang?); killed\n",
            L->kernel->name, o->timeout_s > 0 ? o->timeout_s : 120);
    return 1;
  }
  if (rc != 0) {
    fprintf(stderr, "carve bench: %s: the harness failed (exit %d):\n%s", L->kernel->name, rc, err);
    return 1;
  }
  /* the harness prints one JSON object: the device, the times, and the baseline's beside them */
  char jwhy[160];
  Json *rj = json_parse(res, strlen(res), jwhy, sizeof jwhy);
  if (!rj) {
    fprintf(stderr, "carve bench: %s: the harness's output is %s\n", L->kernel->name, jwhy);
    return 1;
  }
  double med = 0, mn = 0, mx = 0;
  json_get_number(rj, "median_ms", &med);
  json_get_number(rj, "min_ms", &mn);
  json_get_number(rj, "max_ms", &mx);
  const char *dev = json_get_string(rj, "device");
  const Json *base = json_get(rj, "baseline");
  LaunchSpec *s = find_spec(L->prog, L->kernel->name);
  double bytes = s && s->bytes > 0 ? s->bytes : min_bytes(L), flops = s ? s->flops : 0;
  double gbps = med > 0 ? bytes / (med * 1e-3) / 1e9 : 0,
         gflops = med > 0 && flops > 0 ? flops / (med * 1e-3) / 1e9 : 0;
  /* ceilings from the calibration file */
  char *cal = slurp(calibration_path(o->calibration));
  double copy_gbps = 0, fp32 = 0;
  json_number(cal, "copy_gbps", &copy_gbps);
  json_number(cal, "fp32_gflops", &fp32);
  if (o->json) {
    printf(
      "{\"file\": \"%s\", \"kernel\": \"%s\", \"device\": \"%s\", \"grid\": [%lld, %lld, %lld], \"block\": [%lld, %lld, %lld], "
      "\"reps\": %s, \"median_ms\": %.6f, \"min_ms\": %.6f, \"max_ms\": %.6f, \"bytes\": %.6g, \"bytes_source\": \"%s\", \"flops\": %.6g, "
      "\"gbps\": %.3f, \"gflops\": %.3f",
      file, L->kernel->name, dev ? dev : "?", (long long)L->grid[0], (long long)L->grid[1],
      (long long)L->grid[2], (long long)L->block[0], (long long)L->block[1], (long long)L->block[2],
      reps, med, mn, mx, bytes, s && s->bytes > 0 ? "declared" : "buffers once", flops, gbps,
      gflops);
    if (copy_gbps > 0) printf(", \"fraction_of_copy_bw\": %.4f", gbps / copy_gbps);
    if (fp32 > 0 && gflops > 0) printf(", \"fraction_of_fp32\": %.4f", gflops / fp32);
    const char *b =
      base ? strstr(res, "\"baseline\":") : NULL; /* printed as the harness wrote it */
    if (b) {
      const char *e = strchr(b, '}');
      if (e) printf(", %.*s", (int)(e - b + 1), b);
    }
  } else {
    printf("%s: %s<<<(%lld,%lld,%lld), (%lld,%lld,%lld)>>> on %s\n", file, L->kernel->name,
           (long long)L->grid[0], (long long)L->grid[1], (long long)L->grid[2],
           (long long)L->block[0], (long long)L->block[1], (long long)L->block[2], dev ? dev : "?");
    printf("  time: median %.4f ms, min %.4f, max %.4f (%s launches%s, CUDA events)\n", med, mn, mx,
           reps, o->h.flush_l2 ? ", L2 flushed" : "");
    printf("  %.1f GB/s (%s: %.4g bytes)", gbps,
           s && s->bytes > 0 ? "declared" : "each buffer once", bytes);
    if (copy_gbps > 0) printf(", %.0f%% of the measured copy bandwidth", 100 * gbps / copy_gbps);
    printf("\n");
    if (flops > 0) {
      printf("  %.1f GFLOP/s", gflops);
      if (fp32 > 0) printf(", %.1f%% of the measured FP32 rate", 100 * gflops / fp32);
      printf("\n");
    }
    if (base) {
      double bm = 0, bf = 0, bb = 0;
      json_get_number(base, "median_ms", &bm);
      json_get_number(base, "flops", &bf);
      json_get_number(base, "bytes", &bb);
      const char *bn = json_get_string(base, "name");
      printf(
        "  baseline %s: median %.4f ms (%.1f GFLOP/s, %.1f GB/s); the kernel takes %.2fx its time\n",
        bn ? bn : "?", bm, bm > 0 ? bf / (bm * 1e-3) / 1e9 : 0, bm > 0 ? bb / (bm * 1e-3) / 1e9 : 0,
        bm > 0 ? med / bm : 0);
    }
  }
  int result = 0;
  if (o->verify) {
    if (o->json) printf(", \"verify\": [");
    result = verify(L, outdir, o);
    if (o->json) printf("]");
  }
  if (o->ncu) {
    char *ncu = find_program("ncu");
    if (!ncu) fprintf(stderr, "carve bench: ncu (Nsight Compute) not found; counters skipped\n");
    else if (run_ncu(ncu, exe, dir, L, o, dev ? dev : "?")) result = result ? result : 2;
  }
  if (o->json) printf("}\n");
  json_free(rj);
  return result;
}
