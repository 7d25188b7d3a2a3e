/* usage: the text of `carve --help` and of each command's --help (src/main.c's table names
 * them). Kept apart from the command line's code: they are data. */
#ifndef CARVE_USAGE_H
#define CARVE_USAGE_H
#include <stdio.h>
extern const char usage_main[];
extern const char usage_optimize[];
extern const char usage_check[];
extern const char usage_print[];
extern const char usage_bench[];
extern const char usage_run[];
extern const char usage_analyze[];
extern const char usage_estimate[];
extern const char usage_report[];
extern const char usage_arch[];
extern const char usage_calibrate[];
/* optimize --help ends with the pass table's passes (names, summaries), generated */
void usage_passes(FILE *out);
#endif
