/* SPDX-License-Identifier: MIT */
/* Histograms: the bin of a sample, and the counts (see ref_histogram.h).
 * One rule per sample type serves the per-sample answer and the counting
 * loop, so the loop is what the answer says. */
#include "ref_histogram.h"

#include "ref_types.h"

#include <string.h>

/* Exact integer bin arithmetic for 64-bit samples: (x - lower) * bins
 * needs up to 64 + 31 bits. GCC and Clang have it on every 64-bit target. */
typedef unsigned __int128 u128;
typedef __int128 i128;

/* Integer samples: name, prism_type without prefix, element type, the
 * signed type x - lower is taken in, the unsigned type the product with
 * bins is taken in. The bounds are whole and inside the type (prism.h), so
 * for 8- and 32-bit samples every product stays below 2^63. */
#define INT_SAMPLES(X)                                                         \
  X(u8, U8, uint8_t, int64_t, uint64_t)                                        \
  X(i32, I32, int32_t, int64_t, uint64_t)                                      \
  X(u32, U32, uint32_t, int64_t, uint64_t)                                     \
  X(i64, I64, int64_t, i128, u128)                                             \
  X(u64, U64, uint64_t, i128, u128)

#define FLOAT_SAMPLES(X)                                                       \
  X(f32, F32, float)                                                           \
  X(f64, F64, double)

#define COUNT(b)                                                               \
  do {                                                                         \
    if (wide)                                                                  \
      ((uint64_t *)counts)[b]++;                                               \
    else                                                                       \
      ((uint32_t *)counts)[b]++;                                               \
  } while (0)

/* ---- histogram_even ------------------------------------------------------ */

/* Each bin rule is one macro, which the per-sample answer and the counting
 * loop both expand: it sets b to the bin of sample v, or does MISS (return
 * -1, continue) when v is in no bin. The names the rule reads (lo, hi,
 * range, scale, bins) are its SETUP's, in scope where it is used. */

/* Integers: floor((x - lower) * bins / (upper - lower)), exact. A division
 * per sample would make the serial version slow for no reason: the bin is
 * estimated in double (off by at most one, as d * bins stays below 2^95)
 * and corrected with exact products. */
#define EVEN_INT_SETUP(S, W)                                                   \
  const S lo = (S)lower, hi = (S)upper;                                        \
  const W range = (W)(hi - lo);                                                \
  const double scale = (double)bins / (upper - lower);
#define EVEN_INT_BIN(S, W, v, b, MISS)                                         \
  {                                                                            \
    S x = (S)(v);                                                              \
    if (x < lo || x >= hi)                                                     \
      MISS;                                                                    \
    W d = (W)(x - lo), scaled = d * (W)bins;                                   \
    b = (size_t)((double)(uint64_t)d * scale);                                 \
    if (b >= bins)                                                             \
      b = bins - 1;                                                            \
    if ((W)b * range > scaled)                                                 \
      b--;                                                                     \
    else if ((W)(b + 1) * range <= scaled)                                     \
      b++;                                                                     \
  }

/* Floats: lower, upper and scale = bins / (upper - lower) rounded to the
 * sample type, then (x - lower) * scale in the sample type (each step
 * stored, so no wider precision and no fused multiply-add), truncated and
 * capped. */
#define EVEN_FLOAT_SETUP(T)                                                    \
  const T lo = (T)lower, hi = (T)upper;                                        \
  const T width = hi - lo;                                                     \
  const T scale = (T)bins / width;
#define EVEN_FLOAT_BIN(T, v, b, MISS)                                          \
  {                                                                            \
    const T x = (v);                                                           \
    if (!(x >= lo && x < hi))                                                  \
      MISS;                                                                    \
    const T d = x - lo;                                                        \
    const T t = d * scale;                                                     \
    b = (size_t)t;                                                             \
    if (b >= bins)                                                             \
      b = bins - 1;                                                            \
  }

/* The bin of one sample, and the counts of n, by the rule SETUP and BIN
 * make of the types that follow them. */
#define DEFINE_EVEN(NAME, T, SETUP, BIN, ...)                                  \
  static int64_t even_bin_##NAME(T v, size_t bins, double lower,               \
                                 double upper) {                               \
    SETUP(__VA_ARGS__)                                                         \
    size_t b;                                                                  \
    BIN(__VA_ARGS__, v, b, return -1)                                          \
    return (int64_t)b;                                                         \
  }                                                                            \
  static void even_##NAME##_counts(const T *in, size_t n, size_t bins,         \
                                   double lower, double upper, int wide,       \
                                   void *counts) {                             \
    SETUP(__VA_ARGS__)                                                         \
    for (size_t i = 0; i < n; i++) {                                           \
      size_t b;                                                                \
      BIN(__VA_ARGS__, in[i], b, continue)                                     \
      COUNT(b);                                                                \
    }                                                                          \
  }
#define DEFINE_EVEN_INT(NAME, E, T, S, W)                                      \
  DEFINE_EVEN(NAME, T, EVEN_INT_SETUP, EVEN_INT_BIN, S, W)
#define DEFINE_EVEN_FLOAT(NAME, E, T)                                          \
  DEFINE_EVEN(NAME, T, EVEN_FLOAT_SETUP, EVEN_FLOAT_BIN, T)
INT_SAMPLES(DEFINE_EVEN_INT)
FLOAT_SAMPLES(DEFINE_EVEN_FLOAT)

int64_t ref_histogram_even_bin(prism_type type, const void *samples, size_t i,
                               size_t bins, double lower, double upper) {
  switch (type) {
#define CASE(NAME, E, T, ...)                                                  \
  case PRISM_##E:                                                              \
    return even_bin_##NAME(((const T *)samples)[i], bins, lower, upper);
    INT_SAMPLES(CASE)
    FLOAT_SAMPLES(CASE)
#undef CASE
  }
  return -1;
}

void ref_histogram_even_counters(prism_type type, const void *samples, size_t n,
                                 size_t bins, double lower, double upper,
                                 prism_type counter_type, void *counts) {
  int wide = counter_type == PRISM_U64;
  memset(counts, 0, bins * (wide ? 8 : 4));
  switch (type) {
#define CASE(NAME, E, T, ...)                                                  \
  case PRISM_##E:                                                              \
    even_##NAME##_counts((const T *)samples, n, bins, lower, upper, wide,      \
                         counts);                                              \
    break;
    INT_SAMPLES(CASE)
    FLOAT_SAMPLES(CASE)
#undef CASE
  }
}

void ref_histogram_even(prism_type type, const void *samples, size_t n,
                        size_t bins, double lower, double upper,
                        uint64_t *counts) {
  ref_histogram_even_counters(type, samples, n, bins, lower, upper, PRISM_U64,
                              counts);
}

/* ---- histogram_range ----------------------------------------------------- */

/* The last edge not above x, by binary search; NaN is in no bin. The rule
 * as EVEN_INT_BIN's, with edge and bins in scope. */
#define RANGE_BIN(T, v, b, MISS)                                               \
  {                                                                            \
    const T x = (v);                                                           \
    if (!(x >= edge[0] && x < edge[bins]))                                     \
      MISS;                                                                    \
    size_t lo = 0, hi = bins; /* edge[lo] <= x < edge[hi] */                   \
    while (hi - lo > 1) {                                                      \
      size_t mid = lo + (hi - lo) / 2;                                         \
      if (x >= edge[mid])                                                      \
        lo = mid;                                                              \
      else                                                                     \
        hi = mid;                                                              \
    }                                                                          \
    b = lo;                                                                    \
  }
#define DEFINE_RANGE(NAME, E, T)                                               \
  static int64_t range_bin_##NAME(T v, const T *edge, size_t bins) {           \
    size_t b;                                                                  \
    RANGE_BIN(T, v, b, return -1)                                              \
    return (int64_t)b;                                                         \
  }                                                                            \
  static void range_##NAME##_counts(const T *in, size_t n, size_t bins,        \
                                    const T *edge, int wide, void *counts) {   \
    for (size_t i = 0; i < n; i++) {                                           \
      size_t b;                                                                \
      RANGE_BIN(T, in[i], b, continue)                                         \
      COUNT(b);                                                                \
    }                                                                          \
  }
REF_ALL_TYPES(DEFINE_RANGE)

int64_t ref_histogram_range_bin(prism_type type, const void *samples, size_t i,
                                size_t bins, const void *edges) {
  switch (type) {
#define CASE(NAME, E, T)                                                       \
  case PRISM_##E:                                                              \
    return range_bin_##NAME(((const T *)samples)[i], (const T *)edges, bins);
    REF_ALL_TYPES(CASE)
#undef CASE
  }
  return -1;
}

void ref_histogram_range_counters(prism_type type, const void *samples,
                                  size_t n, size_t bins, const void *edges,
                                  prism_type counter_type, void *counts) {
  int wide = counter_type == PRISM_U64;
  memset(counts, 0, bins * (wide ? 8 : 4));
  switch (type) {
#define CASE(NAME, E, T)                                                       \
  case PRISM_##E:                                                              \
    range_##NAME##_counts((const T *)samples, n, bins, (const T *)edges, wide, \
                          counts);                                             \
    break;
    REF_ALL_TYPES(CASE)
#undef CASE
  }
}

void ref_histogram_range(prism_type type, const void *samples, size_t n,
                         size_t bins, const void *edges, uint64_t *counts) {
  ref_histogram_range_counters(type, samples, n, bins, edges, PRISM_U64,
                               counts);
}
