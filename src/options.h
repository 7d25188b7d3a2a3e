/* options: the one option parser of carve's commands. main.c's commands and `carve space` /
 * `carve tune` (src/search/cli.c) each describe their options as a table of OptSpec (a name, an
 * id, what its value is or NULL for a switch) and say which ids a command accepts; opt_read
 * reads one option word of argv against it. What the value means is the caller's: it switches
 * on the id.
 *
 * Spellings: --name VALUE, --name=VALUE, and for the names a table lists as joined (-D, -I)
 * -DVALUE.
 * Diagnostics, nvcc/clang style, one line, exit status 2:
 *   carve CMD: error: unknown option '--kernle' (did you mean '--kernel'?)
 *   carve CMD: error: --kernel needs a name (see 'carve CMD --help')
 *   carve CMD: error: --verify takes no value (see 'carve CMD --help') */
#ifndef CARVE_OPTIONS_H
#define CARVE_OPTIONS_H
#include <stdbool.h>
#include <stdint.h>

typedef struct OptSpec {
  const char *name;  /* "--kernel", "-D" */
  int id;            /* the caller's: a bit of OptTable.accepts, and what it switches on */
  const char *value; /* what its value is, for "needs ..."; NULL: a switch */
} OptSpec;

typedef struct OptTable {
  const char *cmd; /* the command, for diagnostics */
  const OptSpec *specs;
  int n;
  uint64_t accepts;   /* bit (1 << id) for each option the command takes */
  const char *joined; /* the names whose value may follow in the same word, "-D|-I" (-DN=1) */
} OptTable;

/* the accepted spec that the option word names; *val: a value given in the same word, or NULL */
const OptSpec *opt_find(const OptTable *t, const char *word, const char **val);
/* the accepted option nearest to an unknown word (a typo: at most 2 edits, a transposition one),
 * or NULL */
const char *opt_suggest(const OptTable *t, const char *word);
/* argv[*i], a word starting with '-', read as an option of t: *d its spec, *val its value (from
 * the same word or the next, *i advanced past it; NULL for a switch). 0, or 2 after the
 * diagnostic. */
int opt_read(const OptTable *t, int argc, char **argv, int *i, const OptSpec **d, const char **val);
#endif
