/* calibrate: measure the present GPU once (bench/calibrate.cu, carried inside carve) and keep the
 * result where carve bench and the model read it. */
#include "gpu.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "calibrate_src.h"

int calibrate_run(const char *out_path, const char *arch) {
  char *nvcc = find_program("nvcc");
  if (!nvcc) {
    fprintf(
      stderr,
      "carve calibrate: no CUDA toolkit: nvcc not found (PATH, /usr/local/cuda/bin or $CARVE_NVCC)\n");
    return 3;
  }
  char tmpl[] = "/tmp/carve-cal-XXXXXX";
  char *dir = mkdtemp(tmpl);
  if (!dir) {
    perror("carve calibrate");
    return 2;
  }
  char *src = fmt("%s/calibrate.cu", dir), *exe = fmt("%s/calibrate", dir);
  FILE *f = fopen(src, "w");
  if (!f || fputs(calibrate_cu, f) < 0 || fclose(f)) {
    fprintf(stderr, "carve calibrate: cannot write %s\n", src);
    return 2;
  }
  char *argv_nvcc[] = {nvcc, "-O3", fmt("-arch=%s", arch ? arch : "sm_90"), "-o", exe, src, NULL};
  int rc = run_program(argv_nvcc, fmt("%s/nvcc.out", dir), fmt("%s/nvcc.err", dir), 300);
  if (rc) {
    size_t n;
    char *e = read_file(fmt("%s/nvcc.err", dir), &n);
    fprintf(stderr, "carve calibrate: nvcc failed (exit %d):\n%s", rc, e ? e : "");
    free(e);
    return 2;
  }
  fprintf(stderr, "carve calibrate: measuring (about 20 s)...\n");
  char *argv_run[] = {exe, NULL};
  char *json = fmt("%s/calibration.json", dir), *err = fmt("%s/run.err", dir);
  rc = run_program(argv_run, json, err, 300);
  size_t n;
  char *res = read_file(json, &n);
  if (rc == 3 && (!res || !strchr(res, '{'))) {
    fprintf(stderr, "carve calibrate: no CUDA GPU available\n");
    free(res);
    return 3;
  }
  if (rc || !res || !strchr(res, '{')) {
    char *e = read_file(err, &n);
    fprintf(stderr, "carve calibrate: the measurement failed (exit %d):\n%s", rc, e ? e : "");
    free(e);
    free(res);
    return 2;
  }
  char *path = calibration_path(out_path);
  char *parent = arena_strdup(path), *slash = strrchr(parent, '/');
  if (slash && slash != parent) {
    *slash = 0;
    make_dirs(parent);
  }
  /* written whole or not at all, never through a planted link (base's output files) */
  OutFile *of = out_begin(path);
  if (!of || !out_write(of, res, strlen(res)) || !out_commit_all()) {
    out_abort_all();
    free(res);
    return 2;
  }
  fputs(res, stdout);
  fprintf(stderr, "carve calibrate: wrote %s\n", path);
  free(res);
  return 0;
}
