#define P(a,b) a##b
int x = P(1,2)
