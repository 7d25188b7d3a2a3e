// expect: run 2 1:1: error: file contains NUL bytes; not a source file
// file: /dev/zero
// `carve run /dev/zero` stops at the first chunk (it read until out of memory).
