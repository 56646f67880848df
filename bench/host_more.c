/* SPDX-License-Identifier: MIT */
#include "host_more.h"

#include "host_ref.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Exact integer bin arithmetic for 64-bit samples: (x - lower) * bins
 * needs up to 64 + 31 bits. GCC and Clang have it on every 64-bit target. */
typedef unsigned __int128 u128;
typedef __int128 i128;

/* Every sample type: name, prism_type without prefix, element type. */
#define SAMPLE_TYPES(X)                                                        \
  X(u8, U8, uint8_t)                                                           \
  X(i32, I32, int32_t)                                                         \
  X(u32, U32, uint32_t)                                                        \
  X(f32, F32, float)                                                           \
  X(i64, I64, int64_t)                                                         \
  X(u64, U64, uint64_t)                                                        \
  X(f64, F64, double)

/* Integer samples: name, prism_type without prefix, element type, the
 * signed type x - lower is taken in, the unsigned type the product with
 * bins is taken in. */
#define INT_SAMPLES(X)                                                         \
  X(u8, U8, uint8_t, int64_t, uint64_t)                                        \
  X(i32, I32, int32_t, int64_t, uint64_t)                                      \
  X(u32, U32, uint32_t, int64_t, uint64_t)                                     \
  X(i64, I64, int64_t, i128, u128)                                             \
  X(u64, U64, uint64_t, i128, u128)

#define FLOAT_SAMPLES(X)                                                       \
  X(f32, F32, float)                                                           \
  X(f64, F64, double)

#define EDGE_GROWTH 8.0 /* the last range bin is ~2^8 times the first */

static int is_float(prism_type type) {
  return type == PRISM_F32 || type == PRISM_F64;
}

/* A uniform double in [0, 1). */
static double random_unit(uint64_t *s) {
  return (double)(host_random(s) >> 11) * 0x1p-53;
}

/* Element i of a host array, as a double: exact for every value the
 * histogram data and edges take (integers below 2^53). */
static double load(prism_type type, const void *a, size_t i) {
  switch (type) {
#define CASE(NAME, E, T)                                                       \
  case PRISM_##E:                                                              \
    return (double)((const T *)a)[i];
    SAMPLE_TYPES(CASE)
#undef CASE
  }
  return 0;
}

static void store(prism_type type, void *a, size_t i, double v) {
  switch (type) {
#define CASE(NAME, E, T)                                                       \
  case PRISM_##E:                                                              \
    ((T *)a)[i] = (T)v;                                                        \
    break;
    SAMPLE_TYPES(CASE)
#undef CASE
  }
}

/* ---- Histograms ---------------------------------------------------------- */

prism_type host_counter_type(size_t n) {
  return n > UINT32_MAX ? PRISM_U64 : PRISM_U32;
}

void host_histogram_bounds(prism_type type, double *lower, double *upper) {
  switch (type) {
  case PRISM_U8:
    *lower = 0, *upper = 256;
    break;
  case PRISM_I32:
    *lower = -0x1p31, *upper = 0x1p31;
    break;
  case PRISM_U32:
    *lower = 0, *upper = 0x1p32;
    break;
  case PRISM_I64:
    *lower = -0x1p40, *upper = 0x1p40;
    break;
  case PRISM_U64:
    *lower = 0, *upper = 0x1p41;
    break;
  default:
    *lower = -1, *upper = 1;
    break;
  }
}

/* [first, last] of histogram_range's edges over type: the bounds of
 * histogram_even, with the integer top brought within the type. */
static void range_bounds(prism_type type, double *first, double *last) {
  host_histogram_bounds(type, first, last);
  if (type == PRISM_U8 || type == PRISM_I32 || type == PRISM_U32)
    *last -= 1;
}

size_t host_histogram_range_max_bins(prism_type type) {
  double first, last;
  if (is_float(type))
    return (size_t)1 << 24;
  range_bounds(type, &first, &last);
  double span = last - first;
  return span > 0x1p31 ? (size_t)1 << 31 : (size_t)span;
}

void host_histogram_edges(prism_type type, size_t bins, void *edges) {
  double first, last;
  range_bounds(type, &first, &last);
  double growth = exp2(EDGE_GROWTH) - 1;
  store(type, edges, 0, first);
  for (size_t b = 1; b < bins; b++) {
    double g = (exp2(EDGE_GROWTH * (double)b / (double)bins) - 1) / growth;
    double v = first + (last - first) * g;
    double prev = load(type, edges, b - 1);
    if (is_float(type)) {
      store(type, edges, b, v);
      if (load(type, edges, b) <= prev) /* rounded onto its neighbour */
        store(type, edges, b,
              type == PRISM_F32 ? (double)nextafterf((float)prev, INFINITY)
                                : nextafter(prev, INFINITY));
    } else {
      v = floor(v);
      if (v < prev + 1)
        v = prev + 1;
      if (v > last - (double)(bins - b)) /* leave room for the rest */
        v = last - (double)(bins - b);
      store(type, edges, b, v);
    }
  }
  store(type, edges, bins, last);
}

/* Integer bins of histogram_even: bin b holds [start(b), start(b + 1)),
 * start(b) = lower + ceil(b * range / bins). */
static double even_bin_start(double lower, double upper, size_t bins,
                             size_t b) {
  u128 range = (u128)(upper - lower);
  u128 scaled = (u128)b * range;
  return lower + (double)((scaled + bins - 1) / bins);
}

/* A sample inside bin b of histogram_even (floats: in the middle half). */
static double even_sample(prism_type type, double lower, double upper,
                          size_t bins, size_t b, uint64_t *s) {
  if (is_float(type)) {
    double width = (upper - lower) / (double)bins;
    return lower + ((double)b + 0.25 + 0.5 * random_unit(s)) * width;
  }
  double start = even_bin_start(lower, upper, bins, b);
  double end = even_bin_start(lower, upper, bins, b + 1);
  return start + (double)(host_random(s) % (uint64_t)(end - start));
}

/* The bin of histogram_even that holds the middle of an integer range
 * (never empty, even with more bins than values). */
static size_t even_middle_bin(double lower, double upper, size_t bins) {
  u128 range = (u128)(upper - lower);
  return (size_t)(range / 2 * bins / range);
}

/* A sample in [a, b) of type (floats: rounded into it). */
static double range_sample(prism_type type, double a, double b, uint64_t *s) {
  if (!is_float(type))
    return a + (double)(host_random(s) % (uint64_t)(b - a));
  double v = a + (b - a) * random_unit(s);
  double rounded = type == PRISM_F32 ? (double)(float)v : v;
  return rounded >= a && rounded < b ? rounded : a;
}

void host_fill_histogram(prism_type type, size_t bins, int uniform,
                         const void *edges, void *dst, size_t n,
                         uint64_t seed) {
  uint64_t s = seed;
  if (edges) {
    size_t b = bins / 2;
    double a = load(type, edges, uniform ? 0 : b);
    double z = load(type, edges, uniform ? bins : b + 1);
    for (size_t i = 0; i < n; i++)
      store(type, dst, i, range_sample(type, a, z, &s));
    return;
  }
  double lower, upper;
  host_histogram_bounds(type, &lower, &upper);
  if (uniform && (type == PRISM_U8 || type == PRISM_I32 ||
                  type == PRISM_U32)) { /* the bounds are the whole type */
    host_fill_random(type, dst, n, seed);
    return;
  }
  if (uniform && !is_float(type)) { /* every value equally likely */
    for (size_t i = 0; i < n; i++)
      store(type, dst, i, range_sample(type, lower, upper, &s));
    return;
  }
  size_t middle =
      is_float(type) ? bins / 2 : even_middle_bin(lower, upper, bins);
  for (size_t i = 0; i < n; i++) {
    size_t b = uniform ? (size_t)(host_random(&s) % bins) : middle;
    store(type, dst, i, even_sample(type, lower, upper, bins, b, &s));
  }
}

#define COUNT(b)                                                               \
  do {                                                                         \
    if (wide)                                                                  \
      ((uint64_t *)counts)[b]++;                                               \
    else                                                                       \
      ((uint32_t *)counts)[b]++;                                               \
  } while (0)

/* prism_histogram_even's rule for integers: floor((x - lower) * bins /
 * (upper - lower)), exact. A division per sample would make the serial
 * version slow for no reason: the bin is estimated in double (off by at
 * most one, as d * bins stays below 2^95) and corrected with exact
 * products. */
#define DEFINE_EVEN_INT(NAME, E, T, S, W)                                      \
  static void even_##NAME(const T *in, size_t n, size_t bins, double lower,    \
                          double upper, int wide, void *counts) {              \
    S lo = (S)lower, hi = (S)upper;                                            \
    W range = (W)(hi - lo);                                                    \
    double scale = (double)bins / (upper - lower);                             \
    for (size_t i = 0; i < n; i++) {                                           \
      S x = (S)in[i];                                                          \
      if (x < lo || x >= hi)                                                   \
        continue;                                                              \
      W d = (W)(x - lo), scaled = d * (W)bins;                                 \
      size_t b = (size_t)((double)(uint64_t)d * scale);                        \
      if (b >= bins)                                                           \
        b = bins - 1;                                                          \
      if ((W)b * range > scaled)                                               \
        b--;                                                                   \
      else if ((W)(b + 1) * range <= scaled)                                   \
        b++;                                                                   \
      COUNT(b);                                                                \
    }                                                                          \
  }
INT_SAMPLES(DEFINE_EVEN_INT)

/* And for floats: (x - lower) * scale in the sample type, truncated and
 * capped, scale = bins / (upper - lower) rounded to the sample type. */
#define DEFINE_EVEN_FLOAT(NAME, E, T)                                          \
  static void even_##NAME(const T *in, size_t n, size_t bins, double lower,    \
                          double upper, int wide, void *counts) {              \
    T lo = (T)lower, hi = (T)upper;                                            \
    T scale = (T)((double)bins / (upper - lower));                             \
    for (size_t i = 0; i < n; i++) {                                           \
      T x = in[i];                                                             \
      if (!(x >= lo && x < hi))                                                \
        continue;                                                              \
      size_t b = (size_t)((x - lo) * scale);                                   \
      if (b >= bins)                                                           \
        b = bins - 1;                                                          \
      COUNT(b);                                                                \
    }                                                                          \
  }
FLOAT_SAMPLES(DEFINE_EVEN_FLOAT)

/* The last edge not above x, by binary search. */
#define DEFINE_RANGE(NAME, E, T)                                               \
  static void range_##NAME(const T *in, size_t n, size_t bins, const T *edge,  \
                           int wide, void *counts) {                           \
    for (size_t i = 0; i < n; i++) {                                           \
      T x = in[i];                                                             \
      if (!(x >= edge[0] && x < edge[bins]))                                   \
        continue;                                                              \
      size_t lo = 0, hi = bins; /* edge[lo] <= x < edge[hi] */                 \
      while (hi - lo > 1) {                                                    \
        size_t mid = lo + (hi - lo) / 2;                                       \
        if (x >= edge[mid])                                                    \
          lo = mid;                                                            \
        else                                                                   \
          hi = mid;                                                            \
      }                                                                        \
      COUNT(lo);                                                               \
    }                                                                          \
  }
SAMPLE_TYPES(DEFINE_RANGE)

void host_histogram_even(prism_type type, const void *samples, size_t n,
                         size_t bins, double lower, double upper,
                         prism_type counter_type, void *counts) {
  int wide = counter_type == PRISM_U64;
  memset(counts, 0, bins * (wide ? 8 : 4));
  switch (type) {
#define CASE(NAME, E, T)                                                       \
  case PRISM_##E:                                                              \
    even_##NAME((const T *)samples, n, bins, lower, upper, wide, counts);      \
    break;
    SAMPLE_TYPES(CASE)
#undef CASE
  }
}

void host_histogram_range(prism_type type, const void *samples, size_t n,
                          size_t bins, const void *edges,
                          prism_type counter_type, void *counts) {
  int wide = counter_type == PRISM_U64;
  memset(counts, 0, bins * (wide ? 8 : 4));
  switch (type) {
#define CASE(NAME, E, T)                                                       \
  case PRISM_##E:                                                              \
    range_##NAME((const T *)samples, n, bins, (const T *)edges, wide, counts); \
    break;
    SAMPLE_TYPES(CASE)
#undef CASE
  }
}

int host_check_counts(prism_type counter_type, const void *want,
                      const void *got, size_t bins, char *msg,
                      size_t msg_size) {
  int wide = counter_type == PRISM_U64;
  for (size_t b = 0; b < bins; b++) {
    uint64_t w =
        wide ? ((const uint64_t *)want)[b] : ((const uint32_t *)want)[b];
    uint64_t g = wide ? ((const uint64_t *)got)[b] : ((const uint32_t *)got)[b];
    if (w != g) {
      snprintf(msg, msg_size, "bin %zu: got %llu, serial C gives %llu", b,
               (unsigned long long)g, (unsigned long long)w);
      return 0;
    }
  }
  return 1;
}

/* ---- Compaction ---------------------------------------------------------- */

/* keep * 2^bits as an unsigned threshold, capped at the type's maximum. */
static uint64_t unsigned_threshold(double keep, int bits) {
  double v = keep * ldexp(1.0, bits);
  double max = ldexp(1.0, bits); /* exclusive */
  if (v >= max)
    return bits == 64 ? UINT64_MAX : ((uint64_t)1 << bits) - 1;
  return v <= 0 ? 0 : (uint64_t)v;
}

prism_value host_select_threshold(prism_type type, double keep) {
  prism_value a;
  memset(&a, 0, sizeof a);
  switch (type) {
  case PRISM_U8:
    a.u8 = (uint8_t)unsigned_threshold(keep, 8);
    break;
  case PRISM_U32:
    a.u32 = (uint32_t)unsigned_threshold(keep, 32);
    break;
  case PRISM_U64:
    a.u64 = unsigned_threshold(keep, 64);
    break;
  case PRISM_I32: /* the unsigned threshold, shifted down by 2^31 */
    a.i32 = (int32_t)(unsigned_threshold(keep, 32) ^ 0x80000000u);
    break;
  case PRISM_I64:
    a.i64 = (int64_t)(unsigned_threshold(keep, 64) ^ 0x8000000000000000ull);
    break;
  case PRISM_F32:
    a.f32 = (float)(2 * keep - 1);
    break;
  case PRISM_F64:
    a.f64 = 2 * keep - 1;
    break;
  }
  return a;
}

void host_fill_flags(uint8_t *flags, size_t n, double keep, uint64_t seed) {
  uint64_t s = seed;
  for (size_t i = 0; i < n; i++)
    flags[i] = random_unit(&s) < keep;
}

size_t host_fill_runs(prism_type type, void *dst, size_t n, double head,
                      uint64_t seed) {
  size_t size = prism_type_size(type), runs = 0;
  uint64_t s = seed;
  char *out = dst;
  for (size_t i = 0; i < n; i++) {
    if (i > 0 && random_unit(&s) >= head) {
      memcpy(out + i * size, out + (i - 1) * size, size);
      continue;
    }
    /* A fresh value, bitwise unlike the one before: host_fill_random's
     * values are never NaN or -0.0, so that makes it compare unequal. */
    host_fill_random(type, out + i * size, 1, host_random(&s));
    while (i > 0 && memcmp(out + i * size, out + (i - 1) * size, size) == 0)
      host_fill_random(type, out + i * size, 1, host_random(&s));
    runs++;
  }
  return runs;
}

/* Typed loops: name, prism_type without prefix, element type. The serial
 * selections store every element and advance past the kept ones, without a
 * branch that random data would mispredict (out[k] with k <= i stays within
 * out's n elements; the rejected pass of partition stops once all are in). */
#define DEFINE_COMPACTION(NAME, E, T)                                          \
  static size_t count_below_##NAME(T a, const T *in, size_t n) {               \
    size_t k = 0;                                                              \
    for (size_t i = 0; i < n; i++)                                             \
      k += in[i] < a;                                                          \
    return k;                                                                  \
  }                                                                            \
  static size_t select_##NAME(T a, const T *in, size_t n, T *out) {            \
    size_t k = 0;                                                              \
    for (size_t i = 0; i < n; i++) {                                           \
      out[k] = in[i];                                                          \
      k += in[i] < a;                                                          \
    }                                                                          \
    return k;                                                                  \
  }                                                                            \
  static size_t partition_##NAME(T a, const T *in, size_t n, T *out) {         \
    size_t k = select_##NAME(a, in, n, out), j = k;                            \
    for (size_t i = 0; i < n && j < n; i++) { /* j == n: all are in */         \
      out[j] = in[i];                                                          \
      j += !(in[i] < a);                                                       \
    }                                                                          \
    return k;                                                                  \
  }                                                                            \
  static size_t unique_##NAME(const T *in, size_t n, T *out) {                 \
    size_t k = n > 0;                                                          \
    if (n > 0)                                                                 \
      out[0] = in[0];                                                          \
    for (size_t i = 1; i < n; i++) {                                           \
      out[k] = in[i];                                                          \
      k += !(in[i] == in[i - 1]);                                              \
    }                                                                          \
    return k;                                                                  \
  }
SAMPLE_TYPES(DEFINE_COMPACTION)

/* The compaction layout: the count, then the elements. */
static void *elements_of(void *result) {
  return (char *)result + 8;
}

static void set_count(void *result, size_t k) {
  uint64_t count = k;
  memcpy(result, &count, 8);
}

size_t host_count_below(prism_type type, prism_value threshold, const void *in,
                        size_t n) {
  switch (type) {
#define CASE(NAME, E, T)                                                       \
  case PRISM_##E:                                                              \
    return count_below_##NAME(threshold.NAME, (const T *)in, n);
    SAMPLE_TYPES(CASE)
#undef CASE
  }
  return 0;
}

void host_select_if(prism_type type, prism_value threshold, const void *in,
                    size_t n, void *result) {
  size_t k = 0;
  switch (type) {
#define CASE(NAME, E, T)                                                       \
  case PRISM_##E:                                                              \
    k = select_##NAME(threshold.NAME, (const T *)in, n,                        \
                      (T *)elements_of(result));                               \
    break;
    SAMPLE_TYPES(CASE)
#undef CASE
  }
  set_count(result, k);
}

void host_partition_if(prism_type type, prism_value threshold, const void *in,
                       size_t n, void *result) {
  size_t k = 0;
  switch (type) {
#define CASE(NAME, E, T)                                                       \
  case PRISM_##E:                                                              \
    k = partition_##NAME(threshold.NAME, (const T *)in, n,                     \
                         (T *)elements_of(result));                            \
    break;
    SAMPLE_TYPES(CASE)
#undef CASE
  }
  set_count(result, k);
}

void host_unique(prism_type type, const void *in, size_t n, void *result) {
  size_t k = 0;
  switch (type) {
#define CASE(NAME, E, T)                                                       \
  case PRISM_##E:                                                              \
    k = unique_##NAME((const T *)in, n, (T *)elements_of(result));             \
    break;
    SAMPLE_TYPES(CASE)
#undef CASE
  }
  set_count(result, k);
}

void host_select_flagged(size_t element_size, const void *in,
                         const uint8_t *flags, size_t n, void *result) {
  const char *src = in;
  char *out = elements_of(result);
  size_t k = 0;
  for (size_t i = 0; i < n; i++) {
    memcpy(out + k * element_size, src + i * element_size, element_size);
    k += flags[i] != 0;
  }
  set_count(result, k);
}

int host_check_compaction(size_t element_size, const void *want,
                          const void *got, size_t n, int whole, char *msg,
                          size_t msg_size) {
  uint64_t want_count, got_count;
  memcpy(&want_count, want, 8);
  memcpy(&got_count, got, 8);
  if (got_count != want_count) {
    snprintf(msg, msg_size, "count: got %llu, serial C gives %llu",
             (unsigned long long)got_count, (unsigned long long)want_count);
    return 0;
  }
  const char *w = (const char *)want + 8, *g = (const char *)got + 8;
  size_t check = whole ? n : (size_t)want_count;
  for (size_t i = 0; i < check; i++) {
    if (memcmp(w + i * element_size, g + i * element_size, element_size)) {
      snprintf(msg, msg_size,
               "element %zu of %zu differs from serial C's (bytes at "
               "offset %zu)",
               i, check, i * element_size);
      return 0;
    }
  }
  return 1;
}

/* ---- Segments ------------------------------------------------------------ */

/* Segments a run of len elements takes: len / mean, at least 1. */
static size_t part_count(size_t len, size_t mean) {
  if (len == 0)
    return 0;
  return len / mean ? len / mean : 1;
}

size_t host_segment_count(size_t n, size_t mean, int skew) {
  if (!skew)
    return part_count(n, mean);
  size_t big = n / 2, before = (n - big) / 2, after = n - big - before;
  return part_count(before, HOST_SEGMENT_MEAN) + (big > 0) +
         part_count(after, HOST_SEGMENT_MEAN);
}

static void set_offset(size_t offset_size, void *offsets, size_t i, size_t v) {
  if (offset_size == 4)
    ((uint32_t *)offsets)[i] = (uint32_t)v;
  else
    ((uint64_t *)offsets)[i] = (uint64_t)v;
}

static size_t get_offset(size_t offset_size, const void *offsets, size_t i) {
  return offset_size == 4 ? (size_t)((const uint32_t *)offsets)[i]
                          : (size_t)((const uint64_t *)offsets)[i];
}

/* The starts of part_count(len, mean) segments covering [start, start +
 * len): even cuts, each moved at random by less than half the spacing, so
 * that every segment keeps at least one element. Returns the next index. */
static size_t lay_out(size_t start, size_t len, size_t mean, uint64_t *s,
                      size_t offset_size, void *offsets, size_t index) {
  size_t count = part_count(len, mean);
  if (count == 0)
    return index;
  size_t spacing = len / count, extra = len % count;
  size_t jitter = (spacing - 1) / 2;
  for (size_t i = 0; i < count; i++) {
    size_t cut = start + i * spacing + (i < extra ? i : extra);
    if (i > 0 && jitter > 0)
      cut = cut - jitter + (size_t)(host_random(s) % (2 * jitter + 1));
    set_offset(offset_size, offsets, index++, cut);
  }
  return index;
}

void host_segment_offsets(size_t n, size_t mean, int skew, uint64_t seed,
                          size_t offset_size, void *offsets) {
  uint64_t s = seed;
  size_t index;
  if (!skew) {
    index = lay_out(0, n, mean, &s, offset_size, offsets, 0);
  } else {
    size_t big = n / 2, before = (n - big) / 2;
    index = lay_out(0, before, HOST_SEGMENT_MEAN, &s, offset_size, offsets, 0);
    if (big > 0)
      set_offset(offset_size, offsets, index++, before);
    index = lay_out(before + big, n - big - before, HOST_SEGMENT_MEAN, &s,
                    offset_size, offsets, index);
  }
  set_offset(offset_size, offsets, index, n);
}

void host_head_flags(size_t offset_size, const void *offsets, size_t segments,
                     uint8_t *flags, size_t n) {
  memset(flags, 0, n);
  for (size_t s = 0; s < segments; s++)
    flags[get_offset(offset_size, offsets, s)] = 1;
}

void host_segmented_reduce(prism_type type, prism_op op, const void *in,
                           size_t offset_size, const void *offsets,
                           size_t segments, void *out) {
  size_t size = prism_type_size(type);
  for (size_t s = 0; s < segments; s++) {
    size_t begin = get_offset(offset_size, offsets, s);
    size_t end = get_offset(offset_size, offsets, s + 1);
    host_reduce(type, op, (const char *)in + begin * size, end - begin,
                (char *)out + s * size);
  }
}

/* The end of the segment that starts at begin: the next head flag. */
static size_t segment_end(const uint8_t *flags, size_t n, size_t begin) {
  size_t end = begin + 1;
  while (end < n && !flags[end])
    end++;
  return end;
}

void host_segmented_scan(prism_type type, prism_op op, prism_scan_kind kind,
                         const void *in, const uint8_t *flags, size_t n,
                         void *out) {
  size_t size = prism_type_size(type);
  for (size_t begin = 0, end; begin < n; begin = end) {
    end = segment_end(flags, n, begin);
    host_scan(type, op, kind, (const char *)in + begin * size,
              (char *)out + begin * size, end - begin);
  }
}

/* "segment s [begin, end): " before a check's message. */
static int segment_mismatch(size_t s, size_t begin, size_t end,
                            const char *what, char *msg, size_t msg_size) {
  snprintf(msg, msg_size, "segment %zu [%zu, %zu): %s", s, begin, end, what);
  return 0;
}

int host_check_segmented_reduce(prism_type type, prism_op op, const void *in,
                                size_t offset_size, const void *offsets,
                                size_t segments, const void *got, char *msg,
                                size_t msg_size) {
  size_t size = prism_type_size(type);
  char what[384];
  for (size_t s = 0; s < segments; s++) {
    size_t begin = get_offset(offset_size, offsets, s);
    size_t end = get_offset(offset_size, offsets, s + 1);
    if (!host_check_reduce(type, op, (const char *)in + begin * size,
                           end - begin, (const char *)got + s * size, what,
                           sizeof what))
      return segment_mismatch(s, begin, end, what, msg, msg_size);
  }
  return 1;
}

int host_check_segmented_scan(prism_type type, prism_op op,
                              prism_scan_kind kind, const void *in,
                              const uint8_t *flags, size_t n, const void *got,
                              char *msg, size_t msg_size) {
  size_t size = prism_type_size(type);
  char what[384];
  size_t s = 0;
  for (size_t begin = 0, end; begin < n; begin = end, s++) {
    end = segment_end(flags, n, begin);
    if (!host_check_scan(type, op, kind, (const char *)in + begin * size,
                         end - begin, (const char *)got + begin * size, what,
                         sizeof what))
      return segment_mismatch(s, begin, end, what, msg, msg_size);
  }
  return 1;
}
