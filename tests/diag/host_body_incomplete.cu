// expect: run 2 8:37: error: variable 'Tzp' has incomplete type 'struct time_zone'
// flags: --route interp
// stderr: the host function 'rtclock' (called by 'main') could not be read
// A host function whose body does not parse is reported at its cause when the program runs,
// never as "call to 'rtclock', which is declared but never defined" (issue 29).
#include <stdio.h>
#include <sys/time.h>
double rtclock() { struct time_zone Tzp; struct timeval Tp; gettimeofday(&Tp, &Tzp); return Tp.tv_sec + Tp.tv_usec * 1.0e-6; }
int main() { printf("%d\n", rtclock() > 0); return 0; }
