/* options: one option word read against a command's table (src/options.h). */
#include "options.h"
#include "base.h"
#include <stdio.h>
#include <string.h>

/* name is one of the '|'-separated names of list */
static bool listed(const char *list, const char *name) {
  size_t n = strlen(name);
  for (const char *p = list; (p = strstr(p, name)); p++)
    if ((p == list || p[-1] == '|') && (!p[n] || p[n] == '|')) return true;
  return false;
}

/* the command takes d (ids of 64 and more: never) */
static bool opt_accepts(const OptTable *t, const OptSpec *d) {
  return d->id >= 0 && d->id < 64 && (t->accepts >> d->id & 1);
}

/* the spec named by word among those t accepts; *val: a value in the same word */
const OptSpec *opt_find(const OptTable *t, const char *word, const char **val) {
  *val = NULL;
  for (int i = 0; i < t->n; i++) {
    const OptSpec *d = &t->specs[i];
    size_t n = strlen(d->name);
    if (!opt_accepts(t, d) || strncmp(word, d->name, n)) continue;
    if (!word[n]) return d;
    if (word[n] == '=') { /* --name=VALUE */
      *val = word + n + 1;
      return d;
    }
    if (t->joined && listed(t->joined, d->name)) { /* -DN=1, -Idir */
      *val = word + n;
      return d;
    }
  }
  return NULL;
}

/* the optimal string alignment distance of a[0..na) and b[0..nb) (an edit: a letter inserted,
 * deleted, changed, or two neighbours swapped); 99 for words of 48 letters or more */
static int distance(const char *a, size_t na, const char *b, size_t nb) {
  enum { MAX = 48 };
  if (na >= MAX || nb >= MAX) return 99;
  int d[MAX][MAX];
  for (size_t i = 0; i <= na; i++) d[i][0] = (int)i;
  for (size_t j = 0; j <= nb; j++) d[0][j] = (int)j;
  for (size_t i = 1; i <= na; i++)
    for (size_t j = 1; j <= nb; j++) {
      int sub = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]), del = d[i - 1][j] + 1,
          ins = d[i][j - 1] + 1, best = sub < del ? sub : del;
      if (ins < best) best = ins;
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
          d[i - 2][j - 2] + 1 < best)
        best = d[i - 2][j - 2] + 1;
      d[i][j] = best;
    }
  return d[na][nb];
}

/* The nearest accepted name to word (its "=VALUE" left out): at most 2 edits and fewer than a
 * third of the name's letters, so that a short word is not matched to anything; names of one
 * letter (-D, -I, -o) are never suggested. The first of equals, in the table's order. */
const char *opt_suggest(const OptTable *t, const char *word) {
  const char *eq = strchr(word, '=');
  size_t nw = eq ? (size_t)(eq - word) : strlen(word);
  const char *best = NULL;
  int bestd = 3;
  for (int i = 0; i < t->n; i++) {
    const OptSpec *d = &t->specs[i];
    size_t n = strlen(d->name);
    if (!opt_accepts(t, d) || n < 4) continue;
    int k = distance(word, nw, d->name, n);
    if (k < bestd && 3 * (size_t)k < n - 2) {
      best = d->name;
      bestd = k;
    }
  }
  return best;
}

/* option = name | name "=" value | joined-name value | name value-word   (the value where the
 * spec has one); unknown: the nearest of the command's own names suggested */
int opt_read(const OptTable *t, int argc, char **argv, int *i, const OptSpec **d,
             const char **val) {
  const char *word = argv[*i];
  *d = opt_find(t, word, val);
  if (!*d) {
    const char *near = opt_suggest(t, word);
    if (near) {
      fprintf(stderr, "carve %s: error: unknown option '%s' (did you mean '%s'?)\n", t->cmd, word,
              near);
      return 2;
    }
    return usage_error(t->cmd, fmt("unknown option '%s'", word));
  }
  if (!(*d)->value && *val) return usage_error(t->cmd, fmt("%s takes no value", (*d)->name));
  if ((*d)->value && !*val) {
    if (*i + 1 >= argc) return usage_error(t->cmd, fmt("%s needs %s", (*d)->name, (*d)->value));
    *val = argv[++*i];
  }
  return 0;
}
