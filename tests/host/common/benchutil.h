/* helpers in the style of a benchmark suite's common header: a wall clock through gettimeofday
 * with a struct timezone, and a relative difference */
#ifndef BENCHUTIL_H
#define BENCHUTIL_H
#include <stdio.h>
#include <math.h>
#include <sys/time.h>

double wallclock()
{
	struct timezone tz;
	struct timeval tv;
	int rc = gettimeofday(&tv, &tz);
	if (rc != 0) printf("gettimeofday failed: %d\n", rc);
	return tv.tv_sec + tv.tv_usec * 1.0e-6;
}

float relDiff(double a, double b)
{
	double d = a - b;
	if (d < 0) d = -d;
	double m = a < 0 ? -a : a;
	if (m < 0.01) return (float)d;
	return (float)(d / m * 100.0);
}
#endif
