// expect: check 2 3:5: error: integer literal is too large to be represented in any integer type
// #if arithmetic is intmax_t: a literal no type holds is an error there too.
#if 18446744073709551616 > 0
#endif
