/* diagcap: the diagnostics of a command as data, for the outputs that must say what the text
 * says (check's JSON, analyze's SARIF on an input error; run's faults are records instead,
 * faults.c). Diagnostics are printed as
 * always, into a memory stream, then echoed to standard error and read back: one printer
 * (base.c's diag_at), one format, nothing to keep in step. */
#include "report.h"
#include <stdlib.h>
#include <string.h>

void diag_capture_begin(DiagCapture *c) {
  memset(c, 0, sizeof *c);
  c->saved_out = diag_out;
  c->saved_color = diag_color;
  c->mem = open_memstream(&c->buf, &c->len);
  if (!c->mem) return; /* diagnostics then go where they went before */
  diag_out = c->mem;
  diag_color = false;
}

/* a source line under a diagnostic: "%5d | text" or "      | caret" */
static bool source_line(const char *s, size_t n) {
  if (n < 7 || s[6] != '|') return false;
  for (int i = 0; i < 6; i++)
    if (s[i] != ' ' && (s[i] < '0' || s[i] > '9')) return false;
  return true;
}

/* "FILE:LINE:COL: LEVEL: MSG" or "carve: LEVEL: MSG" */
static bool parse_line(const char *s, size_t n, Diag *d) {
  static const char *names[] = {": note: ", ": warning: ", ": error: "};
  const char *hit = NULL;
  int lv = -1;
  for (int i = 0; i < 3; i++) {
    const char *p = strstr(s, names[i]);
    if (p && p < s + n && (!hit || p < hit)) {
      hit = p;
      lv = i;
    }
  }
  if (!hit) return false;
  memset(d, 0, sizeof *d);
  d->level = lv;
  d->related = -1;
  size_t mlen = (size_t)(s + n - hit) - strlen(names[lv]);
  d->msg = arena_strndup(hit + strlen(names[lv]), mlen);
  char *pre = arena_strndup(s, (size_t)(hit - s));
  if (!strcmp(pre, "carve")) return true;
  char *c2 = strrchr(pre, ':');
  if (!c2) {
    d->file = pre;
    return true;
  }
  *c2 = 0;
  char *c1 = strrchr(pre, ':');
  if (!c1) {
    d->file = pre;
    return true;
  }
  *c1 = 0;
  d->file = pre;
  d->line = atoi(c1 + 1);
  d->col = atoi(c2 + 1);
  return true;
}

void diag_capture_end(DiagCapture *c, FILE *echo) {
  diag_out = c->saved_out;
  diag_color = c->saved_color;
  if (!c->mem) return;
  fclose(c->mem);
  c->mem = NULL;
  if (echo && c->len) {
    fwrite(c->buf, 1, c->len, echo);
    fflush(echo);
  }
  for (size_t i = 0; i < c->len;) {
    const char *s = c->buf + i, *nl = memchr(s, '\n', c->len - i);
    size_t n = nl ? (size_t)(nl - s) : c->len - i;
    Diag d;
    if (!source_line(s, n) && parse_line(s, n, &d)) {
      c->d = xrealloc(c->d, sizeof(Diag) * (size_t)(c->n + 1));
      c->d[c->n++] = d;
    }
    i += n + 1;
  }
  /* a note belongs to the error before it, or (printed as context first) to the next one */
  for (int i = 0; i < c->n; i++) {
    if (c->d[i].level != DIAG_NOTE) continue;
    for (int j = i - 1; j >= 0 && c->d[i].related < 0; j--)
      if (c->d[j].level == DIAG_ERROR) c->d[i].related = j;
    for (int j = i + 1; j < c->n && c->d[i].related < 0; j++)
      if (c->d[j].level == DIAG_ERROR) c->d[i].related = j;
  }
}

void diag_capture_free(DiagCapture *c) {
  if (c->mem) diag_capture_end(c, NULL);
  free(c->buf);
  free(c->d);
  memset(c, 0, sizeof *c);
}

static void json_loc(FILE *o, const Diag *d) {
  fprintf(o, "\"file\": ");
  if (d->file) json_string(o, d->file);
  else fprintf(o, "null");
  fprintf(o, ", \"line\": %d, \"column\": %d", d->line, d->col);
}

void diag_json(FILE *o, const DiagCapture *c) {
  fprintf(o, "[");
  int k = 0;
  for (int i = 0; i < c->n; i++) {
    const Diag *d = &c->d[i];
    if (d->related >= 0) continue; /* under its error */
    static const char *lv[] = {"note", "warning", "error"};
    fprintf(o, "%s{\"level\": \"%s\", ", k++ ? ", " : "", lv[d->level]);
    json_loc(o, d);
    fprintf(o, ", \"message\": ");
    json_string(o, d->msg);
    fprintf(o, ", \"notes\": [");
    int nn = 0;
    for (int j = 0; j < c->n; j++) {
      if (c->d[j].related != i) continue;
      fprintf(o, "%s{", nn++ ? ", " : "");
      json_loc(o, &c->d[j]);
      fprintf(o, ", \"message\": ");
      json_string(o, c->d[j].msg);
      fprintf(o, "}");
    }
    fprintf(o, "]}");
  }
  fprintf(o, "]");
}

int diag_count(const DiagCapture *c, int level) {
  int n = 0;
  for (int i = 0; i < c->n; i++) n += c->d[i].level == level;
  return n;
}
