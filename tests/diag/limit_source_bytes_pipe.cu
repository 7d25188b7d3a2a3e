// expect: check 2 1:1: error: the source text of the translation unit exceeds the limit of 67108864 bytes (LIMIT_SOURCE_BYTES
// setup: mkfifo pipe.cu && (timeout 60 sh -c "yes '__device__ int x;' | head -c 70000000 >pipe.cu" &)
// file: $TMP/pipe.cu
// A pipe has no size: it is read in chunks up to the limit, and no further.
