// expect: check 2 1:1: error: the source text of the translation unit exceeds the limit of 67108864 bytes (LIMIT_SOURCE_BYTES
// setup: truncate -s 65M big.cu
// file: $TMP/big.cu
// A regular file over the limit is refused from its size, before any of it is read.
