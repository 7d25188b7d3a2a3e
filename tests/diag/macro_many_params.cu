// expect: check 2 14:2: error: #error reached the end
// setup: { printf '#define F(a0'; for i in $(seq 1 19999); do printf ',a%d' $i; done; printf ') a0'; for i in $(seq 1 19999); do printf ' a%d' $i; done; echo; c=$(printf '%19999s' | tr ' ' ,); for i in $(seq 1 10); do echo "F($c)"; done; echo '#if 0'; echo '#endif'; echo '#error reached the end'; } >params.cu
// file: $TMP/params.cu
// Ten uses of a macro with 20000 parameters: a parameter is found by a table built with the
// definition, not a search of the list for every body token (a second per use, 20 s here).
