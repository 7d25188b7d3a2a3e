/* options.c: an option word read against a command's table: the spellings (--name VALUE,
 * --name=VALUE, -DVALUE for the joined names only), a name accepted only where the command
 * takes its id, switches that take no value, a value missing at the end, and the suggestion for
 * a typo (at most 2 edits, a transposition one, never a one-letter name). Diagnostics go to
 * stderr; what is checked here is what opt_read returns and sets. */
#include "../src/options.h"
#include "../src/base.h"
#include "test.h"

enum { A_KERNEL, A_DEFINE, A_OUT, A_VERIFY, A_BLOCK, A_BLOCKS, A_FLUSH, A_OUT2 };
static const OptSpec specs[] = {
  {"--kernel", A_KERNEL, "a name"},   {"-D", A_DEFINE, "NAME[=VALUE]"},  {"-o", A_OUT, "a path"},
  {"--verify", A_VERIFY, NULL},       {"--block", A_BLOCK, "X[,Y[,Z]]"}, {"--blocks", A_BLOCKS, "N"},
  {"--flush-l2", A_FLUSH, NULL},      {"--out", A_OUT2, "NAME=PATH"},
};

static OptTable table(uint64_t accepts) {
  return (OptTable){"test", specs, (int)(sizeof specs / sizeof *specs), accepts, "-D"};
}

/* opt_read on the words of argv from i; the status, and what it found */
static int read1(const OptTable *t, int argc, char **argv, int *i, int *id, const char **val) {
  const OptSpec *d = NULL;
  FILE *saved = stderr;
  stderr = fopen("/dev/null", "w");
  int rc = opt_read(t, argc, argv, i, &d, val);
  fclose(stderr);
  stderr = saved;
  *id = d ? d->id : -1;
  return rc;
}

static void test_spellings(void) {
  OptTable t = table(~0ull);
  int id, i;
  const char *v;
  char *a1[] = {"--kernel", "mm"};
  i = 0;
  CHECK(read1(&t, 2, a1, &i, &id, &v) == 0 && id == A_KERNEL && !strcmp(v, "mm") && i == 1, "--kernel mm: the next word (i %d)", i);
  char *a2[] = {"--kernel=mm"};
  i = 0;
  CHECK(read1(&t, 1, a2, &i, &id, &v) == 0 && id == A_KERNEL && !strcmp(v, "mm") && i == 0, "--kernel=mm: the same word");
  char *a3[] = {"-DN=64"};
  i = 0;
  CHECK(read1(&t, 1, a3, &i, &id, &v) == 0 && id == A_DEFINE && !strcmp(v, "N=64"), "-DN=64: joined");
  char *a4[] = {"-ofile"};
  i = 0;
  CHECK(read1(&t, 1, a4, &i, &id, &v) == 2, "-ofile: -o is not a joined name, so an unknown option");
  char *a5[] = {"--verify"};
  i = 0;
  CHECK(read1(&t, 1, a5, &i, &id, &v) == 0 && id == A_VERIFY && !v, "--verify: a switch, no value");
  char *a6[] = {"--verify=1"};
  i = 0;
  CHECK(read1(&t, 1, a6, &i, &id, &v) == 2, "--verify=1: a switch takes no value");
  char *a7[] = {"--kernel"};
  i = 0;
  CHECK(read1(&t, 1, a7, &i, &id, &v) == 2, "--kernel at the end: needs a name");
  char *a8[] = {"--blocks", "4"}, *a9[] = {"--block", "4"};
  i = 0;
  CHECK(read1(&t, 2, a8, &i, &id, &v) == 0 && id == A_BLOCKS, "--blocks is not --block with an s");
  i = 0;
  CHECK(read1(&t, 2, a9, &i, &id, &v) == 0 && id == A_BLOCK, "--block");
}

static void test_accepted(void) {
  OptTable t = table(1ull << A_KERNEL | 1ull << A_BLOCK);
  int id, i = 0;
  const char *v;
  char *a[] = {"--verify"};
  CHECK(read1(&t, 1, a, &i, &id, &v) == 2 && id == -1, "--verify is not this command's");
  OptTable u = table(1ull << A_OUT2);
  char *b[] = {"--out", "C=x"};
  i = 0;
  CHECK(read1(&u, 2, b, &i, &id, &v) == 0 && id == A_OUT2, "the entry the command accepts is the one found");
}

static void test_suggest(void) {
  OptTable all = table(~0ull), some = table(1ull << A_KERNEL | 1ull << A_BLOCK);
  const char *s;
  CHECK((s = opt_suggest(&all, "--kernle")) && !strcmp(s, "--kernel"), "--kernle: --kernel (a transposition)");
  CHECK((s = opt_suggest(&all, "--kernel=x")) && !strcmp(s, "--kernel"), "the value is left out: %s", s ? s : "none");
  CHECK((s = opt_suggest(&all, "--flush-l3")) && !strcmp(s, "--flush-l2"), "--flush-l3: --flush-l2");
  CHECK((s = opt_suggest(&some, "--blocks")) && !strcmp(s, "--block"), "--blocks where only --block is taken");
  CHECK(!opt_suggest(&some, "--verify"), "--verify: nothing near among --kernel and --block");
  CHECK(!opt_suggest(&all, "-x"), "-x: one-letter names are never suggested");
  CHECK(!opt_suggest(&all, "--kxrnxl"), "--kxrnxl: 2 edits of 6 letters is too far");
  CHECK(!opt_suggest(&all, "--bogus"), "--bogus: nothing");
}

int main(void) {
  test_spellings();
  test_accepted();
  test_suggest();
  return TEST_SUMMARY("options");
}
