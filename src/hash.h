/* hash: FNV-1a, the one hash carve uses for hash tables (names, macros), cache keys (native
 * code, NVRTC resources), launch identities and output checksums. Written once here.
 *
 * 32-bit: the standard offset basis 2166136261 and prime 16777619.
 * 64-bit: the standard prime 1099511628211, and carve's offset basis 1469598103934665603 (the
 * standard 14695981039346656037 with its last digit missing, as it was first written). It is
 * kept: the checksums `carve run` prints, the native cache's file names and the search's task
 * keys all derive from it, and tests and stored results compare them. */
#ifndef CARVE_HASH_H
#define CARVE_HASH_H
#include <stddef.h>
#include <stdint.h>

#define FNV32_BASIS 2166136261u
#define FNV32_PRIME 16777619u
#define FNV64_BASIS 1469598103934665603ull
#define FNV64_PRIME 1099511628211ull

/* FNV-1a of n bytes (32-bit) */
static inline uint32_t fnv1a32(const void *data, size_t n) {
  const unsigned char *p = data;
  uint32_t h = FNV32_BASIS;
  for (size_t i = 0; i < n; i++) h = (h ^ p[i]) * FNV32_PRIME;
  return h;
}

/* h continued over n more bytes (64-bit); start from FNV64_BASIS */
static inline uint64_t fnv1a64_add(uint64_t h, const void *data, size_t n) {
  const unsigned char *p = data;
  for (size_t i = 0; i < n; i++) h = (h ^ p[i]) * FNV64_PRIME;
  return h;
}

/* FNV-1a of n bytes (64-bit) */
static inline uint64_t fnv1a64(const void *data, size_t n) {
  return fnv1a64_add(FNV64_BASIS, data, n);
}

/* FNV-1a of a NUL-terminated string (64-bit) */
static inline uint64_t fnv1a64_str(const char *s) {
  uint64_t h = FNV64_BASIS;
  for (; *s; s++) h = (h ^ (unsigned char)*s) * FNV64_PRIME;
  return h;
}

/* h continued over the 8 bytes of v, lowest first (the same on any byte order) */
static inline uint64_t fnv1a64_u64(uint64_t h, uint64_t v) {
  for (int b = 0; b < 8; b++) h = (h ^ ((v >> (8 * b)) & 0xff)) * FNV64_PRIME;
  return h;
}

/* one FNV-1a step over a whole 64-bit word (not its bytes): a fast mix for in-memory keys that
 * are never stored (metrics.c's warp access identity) */
static inline uint64_t fnv1a64_word(uint64_t h, uint64_t v) { return (h ^ v) * FNV64_PRIME; }
#endif
