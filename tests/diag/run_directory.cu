// expect: run 2 carve: error: cannot read 'tests/diag': Is a directory
// file: tests/diag
// `carve run DIR` says what is wrong (it said "Input/output error").
