/* report: printing results, computing nothing.
 *   report.c           an analysis as findings (location, cost, remedy): text, JSON
 *                      (docs/analyze-json.md), SARIF 2.1.0
 *   estimate_report.c  an estimate and a ranking of variants: text, JSON (docs/estimate-json.md) */
#ifndef CARVE_REPORT_H
#define CARVE_REPORT_H
#include "../analysis/analysis.h"
#include "../model/estimate.h"

typedef enum { FMT_TEXT, FMT_JSON, FMT_SARIF } ReportFormat;
/* print the report; returns the highest finding level (0 none, 1 note, 2 warning, 3 error) */
int report(Analysis *a, const char *file, ReportFormat f, FILE *out);

/* s as a JSON string literal (NULL as "") */
void json_string(FILE *out, const char *s);

void estimate_print_text(const EstimateResult *r, FILE *out);
void estimate_print_json(const EstimateResult *r, FILE *out);
/* the ranking of `carve estimate --rank`, and why each variant is slower than the fastest */
void ranking_print_text(const Ranking *rk, FILE *out);
void ranking_print_json(const Ranking *rk, FILE *out);
#endif
