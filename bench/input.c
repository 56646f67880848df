/* SPDX-License-Identifier: MIT */
/* The bench's seeded inputs (see input.h). */
#include "input.h"

#include "ref_types.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Exact integer bin arithmetic for 64-bit samples (the middle of a range
 * of up to 2^64 values). GCC and Clang have it on every 64-bit target. */
typedef unsigned __int128 u128;

#define EDGE_GROWTH 8.0 /* the last range bin is ~2^8 times the first */

static int is_float(prism_type type) {
  return type == PRISM_F32 || type == PRISM_F64;
}

/* A uniform double in [0, 1). */
static double random_unit(uint64_t *s) {
  return (double)(input_random(s) >> 11) * 0x1p-53;
}

/* Element i of a host array, as a double: exact for every value the
 * histogram data and edges take (integers below 2^53). */
static double load(prism_type type, const void *a, size_t i) {
  switch (type) {
#define CASE(NAME, E, T)                                                       \
  case PRISM_##E:                                                              \
    return (double)((const T *)a)[i];
    REF_ALL_TYPES(CASE)
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
    REF_ALL_TYPES(CASE)
#undef CASE
  }
}

/* ---- Any data ------------------------------------------------------------ */

uint64_t input_random(uint64_t *state) {
  uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

void input_fill_random(prism_type type, void *dst, size_t n, uint64_t seed) {
  uint64_t s = seed;
  switch (type) {
  case PRISM_I32:
  case PRISM_U32:
    for (size_t i = 0; i < n; i++)
      ((uint32_t *)dst)[i] = (uint32_t)input_random(&s);
    break;
  case PRISM_I64:
  case PRISM_U64:
    for (size_t i = 0; i < n; i++)
      ((uint64_t *)dst)[i] = input_random(&s);
    break;
  case PRISM_F32: /* multiples of 2^-23: exact in float */
    for (size_t i = 0; i < n; i++)
      ((float *)dst)[i] = (float)((input_random(&s) >> 40) * 0x1p-23 - 1.0);
    break;
  case PRISM_F64:
    for (size_t i = 0; i < n; i++)
      ((double *)dst)[i] = (double)(input_random(&s) >> 11) * 0x1p-52 - 1.0;
    break;
  case PRISM_U8:
    for (size_t i = 0; i < n; i++)
      ((uint8_t *)dst)[i] = (uint8_t)input_random(&s);
    break;
  }
}

void input_fill_random_bits(prism_type type, void *dst, size_t n,
                            uint64_t seed) {
  uint64_t s = seed;
  if (type == PRISM_U8) {
    input_fill_random(type, dst, n, seed);
  } else if (prism_type_size(type) == 4) {
    uint32_t minus_zero = type == PRISM_F32 ? 0x80000000u : 0;
    for (size_t i = 0; i < n; i++) {
      uint32_t b = (uint32_t)input_random(&s);
      ((uint32_t *)dst)[i] = minus_zero && b == minus_zero ? 0 : b;
    }
  } else {
    uint64_t minus_zero = type == PRISM_F64 ? 0x8000000000000000ull : 0;
    for (size_t i = 0; i < n; i++) {
      uint64_t b = input_random(&s);
      ((uint64_t *)dst)[i] = minus_zero && b == minus_zero ? 0 : b;
    }
  }
}

void input_fill_indices(void *dst, size_t n, size_t value_size) {
  for (size_t i = 0; i < n; i++) {
    if (value_size == 4)
      ((uint32_t *)dst)[i] = (uint32_t)i;
    else
      ((uint64_t *)dst)[i] = (uint64_t)i;
  }
}

#define FINGERPRINT_SAMPLES 4096

uint64_t input_fingerprint(const void *data, size_t n, size_t size) {
  uint64_t h = 1469598103934665603u ^ n; /* FNV-1a */
  const unsigned char *bytes = data;
  size_t step = n / FINGERPRINT_SAMPLES + 1;
  for (size_t i = 0; i < n; i += step)
    for (size_t b = 0; b < size; b++)
      h = (h ^ bytes[i * size + b]) * 1099511628211u;
  return h;
}

/* ---- Histograms ---------------------------------------------------------- */

void input_histogram_bounds(prism_type type, double *lower, double *upper) {
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
  input_histogram_bounds(type, first, last);
  if (type == PRISM_U8 || type == PRISM_I32 || type == PRISM_U32)
    *last -= 1;
}

size_t input_histogram_range_max_bins(prism_type type) {
  double first, last;
  if (is_float(type))
    return (size_t)1 << 24;
  range_bounds(type, &first, &last);
  double span = last - first;
  return span > 0x1p31 ? (size_t)1 << 31 : (size_t)span;
}

void input_histogram_edges(prism_type type, size_t bins, void *edges) {
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
  return start + (double)(input_random(s) % (uint64_t)(end - start));
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
    return a + (double)(input_random(s) % (uint64_t)(b - a));
  double v = a + (b - a) * random_unit(s);
  double rounded = type == PRISM_F32 ? (double)(float)v : v;
  return rounded >= a && rounded < b ? rounded : a;
}

void input_fill_histogram(prism_type type, size_t bins, int uniform,
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
  input_histogram_bounds(type, &lower, &upper);
  if (uniform && (type == PRISM_U8 || type == PRISM_I32 ||
                  type == PRISM_U32)) { /* the bounds are the whole type */
    input_fill_random(type, dst, n, seed);
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
    size_t b = uniform ? (size_t)(input_random(&s) % bins) : middle;
    store(type, dst, i, even_sample(type, lower, upper, bins, b, &s));
  }
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

prism_value input_select_threshold(prism_type type, double keep) {
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

void input_fill_flags(uint8_t *flags, size_t n, double keep, uint64_t seed) {
  uint64_t s = seed;
  for (size_t i = 0; i < n; i++)
    flags[i] = random_unit(&s) < keep;
}

size_t input_fill_runs(prism_type type, void *dst, size_t n, double head,
                       uint64_t seed) {
  size_t size = prism_type_size(type), runs = 0;
  uint64_t s = seed;
  char *out = dst;
  for (size_t i = 0; i < n; i++) {
    if (i > 0 && random_unit(&s) >= head) {
      memcpy(out + i * size, out + (i - 1) * size, size);
      continue;
    }
    /* A fresh value, bitwise unlike the one before: input_fill_random's
     * values are never NaN or -0.0, so that makes it compare unequal. */
    input_fill_random(type, out + i * size, 1, input_random(&s));
    while (i > 0 && memcmp(out + i * size, out + (i - 1) * size, size) == 0)
      input_fill_random(type, out + i * size, 1, input_random(&s));
    runs++;
  }
  return runs;
}

/* ---- Segments ------------------------------------------------------------ */

/* Segments a run of len elements takes: len / mean, at least 1. */
static size_t part_count(size_t len, size_t mean) {
  if (len == 0)
    return 0;
  return len / mean ? len / mean : 1;
}

size_t input_segment_count(size_t n, size_t mean, int skew) {
  if (skew != INPUT_SEGMENTS_SKEW)
    return part_count(n, mean);
  size_t big = n / 2, before = (n - big) / 2, after = n - big - before;
  return part_count(before, INPUT_SEGMENT_MEAN) + (big > 0) +
         part_count(after, INPUT_SEGMENT_MEAN);
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
      cut = cut - jitter + (size_t)(input_random(s) % (2 * jitter + 1));
    set_offset(offset_size, offsets, index++, cut);
  }
  return index;
}

/* A draw of the Pareto distribution with minimum 1 (inverse transform of a
 * uniform in (0, 1]). */
static double pareto_draw(uint64_t *s) {
  double u = (double)((input_random(s) >> 11) + 1) * 0x1p-53;
  return pow(u, -1.0 / INPUT_PARETO_SHAPE);
}

/* The starts of count segments covering [0, n): each gets one element, and
 * the other n - count go in proportion to a Pareto draw. The offsets round
 * the running sum of the draws down, so they never decrease and the last
 * segment ends at n exactly; the draws are made twice (the total first) so
 * that nothing is allocated. Returns the next index. */
static size_t lay_out_pareto(size_t n, size_t count, uint64_t seed,
                             size_t offset_size, void *offsets) {
  uint64_t s = seed;
  double total = 0, sum = 0, rest = (double)(n - count);
  for (size_t i = 0; i < count; i++)
    total += pareto_draw(&s);
  s = seed;
  for (size_t i = 0; i < count; i++) {
    size_t share = (size_t)(rest * (sum / total));
    set_offset(offset_size, offsets, i, i + share);
    sum += pareto_draw(&s);
  }
  return count;
}

void input_segment_offsets(size_t n, size_t mean, int skew, uint64_t seed,
                           size_t offset_size, void *offsets) {
  uint64_t s = seed;
  size_t index;
  if (skew == INPUT_SEGMENTS_EVEN) {
    index = lay_out(0, n, mean, &s, offset_size, offsets, 0);
  } else if (skew == INPUT_SEGMENTS_PARETO) {
    index = lay_out_pareto(n, part_count(n, mean), seed, offset_size, offsets);
  } else {
    size_t big = n / 2, before = (n - big) / 2;
    index = lay_out(0, before, INPUT_SEGMENT_MEAN, &s, offset_size, offsets, 0);
    if (big > 0)
      set_offset(offset_size, offsets, index++, before);
    index = lay_out(before + big, n - big - before, INPUT_SEGMENT_MEAN, &s,
                    offset_size, offsets, index);
  }
  set_offset(offset_size, offsets, index, n);
}

void input_head_flags(size_t offset_size, const void *offsets, size_t segments,
                      uint8_t *flags, size_t n) {
  memset(flags, 0, n);
  for (size_t s = 0; s < segments; s++)
    flags[get_offset(offset_size, offsets, s)] = 1;
}
