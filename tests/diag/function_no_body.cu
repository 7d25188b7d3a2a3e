// expect: check 2 2:26: error: expected '{' or ';' after the declaration of 'k'
__global__ void k(int *a)