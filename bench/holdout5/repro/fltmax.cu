// fltmax: FLT_MAX as <float.h> spells it (3.40282347e+38F) rounds to the largest float in C and
// in nvcc; carve reads it as infinity (prints "-inf inf 1"; nvcc-built: "-3.40282e+38 3.40282e+38 1").
#include <stdio.h>
#include <float.h>
int main(void)
{
    float a = -FLT_MAX;
    float b = FLT_MAX;
    printf("%g %g %d\n", a, b, (int)(b > 1e38f));
    return 0;
}
