/* SPDX-License-Identifier: MIT */
/* prism_histogram_even and prism_histogram_range against the serial
 * reference: every sample type and both counter types, bin counts from 1
 * to 65,536 (and 2^20 and more for the wide paths), sizes around tile
 * and chunk boundaries, samples at and around the bounds, NaN, skewed
 * input, float samples whose bin rounds onto an edge, and bad input. */
#include "harness.h"
#include "ref_histogram.h"
#include "vectors.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int harness_needs_backend = 1;

static const prism_type sample_types[] = {
    PRISM_U8, PRISM_I32, PRISM_U32, PRISM_F32, PRISM_I64, PRISM_U64, PRISM_F64};
#define SAMPLE_TYPES (sizeof sample_types / sizeof sample_types[0])

static int is_float(prism_type t) {
  return t == PRISM_F32 || t == PRISM_F64;
}

/* The float next to x towards -inf (dir < 0) or +inf, by its bits (the
 * suites do not link libm). */
static float step_f32(float x, int dir) {
  if (isnan(x) || isinf(x))
    return x;
  if (x == 0)
    return dir < 0 ? -0x1p-149f : 0x1p-149f;
  uint32_t b;
  memcpy(&b, &x, 4);
  b = (x > 0) == (dir > 0) ? b + 1 : b - 1;
  memcpy(&x, &b, 4);
  return x;
}

static double step_f64(double x, int dir) {
  if (isnan(x) || isinf(x))
    return x;
  if (x == 0)
    return dir < 0 ? -0x1p-1074 : 0x1p-1074;
  uint64_t b;
  memcpy(&b, &x, 8);
  b = (x > 0) == (dir > 0) ? b + 1 : b - 1;
  memcpy(&x, &b, 8);
  return x;
}

/* x rounded down to a whole number (doubles of 2^52 and more are). */
static double whole(double x) {
  if (!(fabs(x) < 0x1p52))
    return x;
  const double t = (double)(int64_t)x;
  return t > x ? t - 1 : t;
}

/* The type's smallest value and its largest + 1, as doubles. */
static void type_bounds(prism_type t, double *lo, double *hi) {
  switch (t) {
  case PRISM_U8:
    *lo = 0, *hi = 256;
    break;
  case PRISM_I32:
    *lo = -2147483648.0, *hi = 2147483648.0;
    break;
  case PRISM_U32:
    *lo = 0, *hi = 4294967296.0;
    break;
  case PRISM_I64:
    *lo = -9223372036854775808.0, *hi = 9223372036854775808.0;
    break;
  case PRISM_U64:
    *lo = 0, *hi = 18446744073709551616.0;
    break;
  case PRISM_F32:
    *lo = -FLT_MAX, *hi = FLT_MAX;
    break;
  default:
    *lo = -DBL_MAX, *hi = DBL_MAX;
    break;
  }
}

/* Store v (a whole number for integer types, clamped to the type) as
 * element i. */
static void put(prism_type t, void *p, size_t i, double v) {
  double lo, hi;
  type_bounds(t, &lo, &hi);
  if (!is_float(t)) {
    v = v < lo ? lo : v;
    v = v >= hi ? hi - 1 : v;
  }
  switch (t) {
  case PRISM_U8:
    ((uint8_t *)p)[i] = (uint8_t)v;
    break;
  case PRISM_I32:
    ((int32_t *)p)[i] = (int32_t)v;
    break;
  case PRISM_U32:
    ((uint32_t *)p)[i] = (uint32_t)v;
    break;
  case PRISM_I64: /* hi - 1 rounds back to 2^63 as a double */
    ((int64_t *)p)[i] = v >= hi ? INT64_MAX : (int64_t)v;
    break;
  case PRISM_U64:
    ((uint64_t *)p)[i] = v >= hi ? UINT64_MAX : (uint64_t)v;
    break;
  case PRISM_F32:
    ((float *)p)[i] = (float)v;
    break;
  default:
    ((double *)p)[i] = v;
    break;
  }
}

/*
 * n samples around [lower, upper): mostly inside, an eighth of the range
 * beyond each end, and every 16th sample one of the edge values: lower,
 * just below lower, upper, just below upper, the type's extremes (and NaN,
 * infinities and -0.0 for floats). 64-bit integers also get full-width
 * random bits, which doubles cannot carry.
 */
static void fill_around(prism_type t, double lower, double upper, uint64_t seed,
                        void *out, size_t n) {
  double tlo, thi;
  type_bounds(t, &tlo, &thi);
  const double w = upper - lower;
  uint64_t s = seed * 0x9E3779B97F4A7C15ull + 17;
  for (size_t i = 0; i < n; i++) {
    const uint64_t r = vec_next(&s);
    const double u = (double)(r >> 11) * 0x1.0p-53;
    double v = lower - w / 8 + u * (w * 1.25);
    if (!is_float(t))
      v = whole(v);
    if (r % 16 == 0) {
      const double fv = is_float(t) ? 0.0 : 1.0;
      const double specials[] = {lower,     lower - fv, upper, upper - fv,
                                 tlo,       thi - 1,    NAN,   INFINITY,
                                 -INFINITY, -0.0};
      const size_t count = is_float(t) ? 10 : 6;
      v = specials[(r >> 8) % count];
      if (is_float(t) && (r >> 16) % 2) /* just below, in the type */
        v = t == PRISM_F32 ? (double)step_f32((float)v, -1) : step_f64(v, -1);
    }
    put(t, out, i, v);
    if ((t == PRISM_I64 || t == PRISM_U64) && r % 16 == 1)
      memcpy((uint64_t *)out + i, &s, 8);
  }
}

/* Compare device counts (u32 or u64) with the reference. */
static void expect_counts(prism_buffer *dcounts, prism_type ct,
                          const uint64_t *want, size_t bins, const char *what) {
  unsigned char *got = harness_download(dcounts);
  for (size_t b = 0; b < bins; b++) {
    uint64_t g;
    if (ct == PRISM_U32) {
      uint32_t g32;
      memcpy(&g32, got + 4 * b, 4);
      g = g32;
    } else {
      memcpy(&g, got + 8 * b, 8);
    }
    if (g != want[b]) {
      free(got);
      cr_assert_fail("%s: counts[%zu] = %llu, want %llu", what, b,
                     (unsigned long long)g, (unsigned long long)want[b]);
    }
  }
  free(got);
}

static void check_even(prism_context *ctx, prism_type t, const void *host,
                       size_t n, size_t bins, double lower, double upper,
                       prism_type ct, const char *label) {
  char what[200];
  snprintf(what, sizeof what,
           "%s: even %s, n = %zu, %zu bins over [%.17g, %.17g), %s counters",
           label, prism_type_name(t), n, bins, lower, upper,
           prism_type_name(ct));
  prism_buffer *ds = harness_upload(ctx, host, n * prism_type_size(t));
  prism_buffer *dc = harness_poisoned(ctx, bins * prism_type_size(ct));
  prism_status st =
      prism_histogram_even(ctx, t, ds, n, bins, lower, upper, ct, dc);
  cr_assert_eq(st, PRISM_OK, "%s: %s", what, prism_context_last_error(ctx));
  uint64_t *want = harness_malloc(bins * sizeof *want);
  ref_histogram_even(t, host, n, bins, lower, upper, want);
  expect_counts(dc, ct, want, bins, what);
  free(want);
  prism_buffer_destroy(dc);
  prism_buffer_destroy(ds);
}

static void check_range(prism_context *ctx, prism_type t, const void *host,
                        size_t n, size_t bins, const void *edges, prism_type ct,
                        const char *label) {
  char what[160];
  snprintf(what, sizeof what, "%s: range %s, n = %zu, %zu bins, %s counters",
           label, prism_type_name(t), n, bins, prism_type_name(ct));
  prism_buffer *ds = harness_upload(ctx, host, n * prism_type_size(t));
  prism_buffer *dc = harness_poisoned(ctx, bins * prism_type_size(ct));
  /* The edges are reused (overwritten) as soon as the call returns. */
  const size_t edge_bytes = (bins + 1) * prism_type_size(t);
  unsigned char *copy = harness_malloc(edge_bytes);
  memcpy(copy, edges, edge_bytes);
  prism_status st = prism_histogram_range(ctx, t, ds, n, bins, copy, ct, dc);
  memset(copy, 0x5A, edge_bytes);
  free(copy);
  cr_assert_eq(st, PRISM_OK, "%s: %s", what, prism_context_last_error(ctx));
  uint64_t *want = harness_malloc(bins * sizeof *want);
  ref_histogram_range(t, host, n, bins, edges, want);
  expect_counts(dc, ct, want, bins, what);
  free(want);
  prism_buffer_destroy(dc);
  prism_buffer_destroy(ds);
}

typedef struct even_case {
  size_t bins;
  double lower, upper;
} even_case;

/* Bounds per type: every mapping (widths that are powers of two, other
 * divisors, ranges that do not divide evenly, the whole type) and the
 * bin counts the issue names. */
static size_t even_cases(prism_type t, even_case *c) {
  const double p32 = 4294967296.0, p31 = 2147483648.0;
  const double p63 = 9223372036854775808.0, p64 = 18446744073709551616.0;
  size_t k = 0;
  switch (t) {
  case PRISM_U8:
    c[k++] = (even_case){256, 0, 256};
    c[k++] = (even_case){7, 10, 250};
    c[k++] = (even_case){1, 0, 256};
    c[k++] = (even_case){32, 16, 48};
    c[k++] = (even_case){1000, 0, 200};
    c[k++] = (even_case){5, 3, 203};
    break;
  case PRISM_I32:
    c[k++] = (even_case){7, -100, 100};
    c[k++] = (even_case){256, -p31, p31};
    c[k++] = (even_case){1000, -1000, 1000};
    c[k++] = (even_case){65536, 0, 65536};
    c[k++] = (even_case){1, -p31, p31};
    break;
  case PRISM_U32:
    c[k++] = (even_case){1024, 0, p32};
    c[k++] = (even_case){7, 0, 100};
    c[k++] = (even_case){1000, 5, 1005};
    c[k++] = (even_case){1000, 0, 3000};
    c[k++] = (even_case){256, 1u << 20, p32};
    break;
  case PRISM_I64:
    c[k++] = (even_case){256, -p63, p63};
    c[k++] = (even_case){7, -p63, p63};
    c[k++] = (even_case){7, -100, 100};
    c[k++] = (even_case){1000, -4611686018427387904.0, 4611686018427387904.0};
    c[k++] = (even_case){1000, -3e15, 1e15};
    break;
  case PRISM_U64:
    c[k++] = (even_case){256, 0, p64};
    c[k++] = (even_case){7, 0, p64};
    c[k++] = (even_case){1, 0, p64};
    c[k++] = (even_case){65536, 0, 1099511627776.0};
    c[k++] = (even_case){1000, 1e18, 1.8e19};
    c[k++] = (even_case){7, 100, 200};
    break;
  default: /* floats */
    c[k++] = (even_case){7, -1, 1};
    c[k++] = (even_case){256, -1, 1};
    c[k++] = (even_case){1000, 0.1, 0.7};
    c[k++] = (even_case){65536, -100, 100};
    c[k++] = (even_case){3, -1e30, 1e30};
    c[k++] = (even_case){1, 0, 1e-3};
    break;
  }
  return k;
}

/* Sizes around the tiles (256 work-items x 8, 16 or 32 samples) and the
 * CPU chunks (64 Ki samples). */
static const size_t sizes[] = {1,    2,    3,    15,   16,    17,    255,
                               256,  257,  2047, 2048, 2049,  4095,  4096,
                               4097, 8191, 8192, 8193, 65535, 65537, 262145};

static void even_suite(prism_type t) {
  prism_context *ctx = harness_context();
  harness_require_type(ctx, t);
  even_case cases[8];
  const size_t ncases = even_cases(t, cases);
  const size_t es = prism_type_size(t);
  const size_t big = 1000003;
  unsigned char *host = harness_malloc(big * es);
  for (size_t c = 0; c < ncases; c++) {
    const even_case *e = &cases[c];
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
      const size_t n = sizes[s];
      fill_around(t, e->lower, e->upper, n + c, host, n);
      check_even(ctx, t, host, n, e->bins, e->lower, e->upper,
                 s % 2 ? PRISM_U64 : PRISM_U32, "around the bounds");
    }
    fill_around(t, e->lower, e->upper, c, host, big);
    check_even(ctx, t, host, big, e->bins, e->lower, e->upper, PRISM_U32,
               "around the bounds");
    check_even(ctx, t, host, big, e->bins, e->lower, e->upper, PRISM_U64,
               "around the bounds");
    /* The shared vectors. */
    for (int p = 0; p < VEC_PATTERN_COUNT; p++) {
      if (!vec_pattern_applies((vec_pattern)p, t))
        continue;
      const size_t n = p % 2 ? 65537 : 8193;
      vec_fill(t, (vec_pattern)p, 11 + c, host, n);
      check_even(ctx, t, host, n, e->bins, e->lower, e->upper,
                 p % 3 ? PRISM_U32 : PRISM_U64, vec_pattern_name(p));
    }
  }
  free(host);
  prism_context_destroy(ctx);
}

Test(histogram, even_u8) {
  even_suite(PRISM_U8);
}
Test(histogram, even_i32) {
  even_suite(PRISM_I32);
}
Test(histogram, even_u32) {
  even_suite(PRISM_U32);
}
Test(histogram, even_f32) {
  even_suite(PRISM_F32);
}
Test(histogram, even_i64) {
  even_suite(PRISM_I64);
}
Test(histogram, even_u64) {
  even_suite(PRISM_U64);
}
Test(histogram, even_f64) {
  even_suite(PRISM_F64);
}

/* Element i as a double (64-bit integers rounded). */
static double get(prism_type t, const void *p, size_t i) {
  switch (t) {
  case PRISM_U8:
    return ((const uint8_t *)p)[i];
  case PRISM_I32:
    return ((const int32_t *)p)[i];
  case PRISM_U32:
    return ((const uint32_t *)p)[i];
  case PRISM_I64:
    return (double)((const int64_t *)p)[i];
  case PRISM_U64:
    return (double)((const uint64_t *)p)[i];
  case PRISM_F32:
    return ((const float *)p)[i];
  default:
    return ((const double *)p)[i];
  }
}

/* Edges uneven in width, exact in the type: steps of 1 to 5 (quarters for
 * floats), every third step a thousand times longer for 64-bit types;
 * floats also take -inf and +inf as the outer edges when outer is set.
 * Sets [*first, *last] to the span that samples should cover. */
static void uneven_edges(prism_type t, size_t bins, int outer, void *edges,
                         double *first, double *last) {
  const int is_signed = t == PRISM_I32 || t == PRISM_I64 || is_float(t);
  double v = is_signed ? -1.5 * (double)bins : 0;
  for (size_t b = 0; b <= bins; b++) {
    put(t, edges, b, v);
    double step = 1 + (double)((b * 7919) % 5);
    if (t == PRISM_U8)
      step = 1;
    else if (is_float(t))
      step *= 0.25;
    else if ((t == PRISM_I64 || t == PRISM_U64) && b % 3 == 0)
      step *= 1000;
    v += step;
  }
  const double lo = get(t, edges, 0), hi = get(t, edges, bins);
  *first = lo - (hi - lo) / 8 - 2;
  *last = hi + (hi - lo) / 8 + 2;
  if (outer && is_float(t)) {
    put(t, edges, 0, -INFINITY);
    put(t, edges, bins, INFINITY);
  }
}

static void range_suite(prism_type t) {
  prism_context *ctx = harness_context();
  harness_require_type(ctx, t);
  const size_t es = prism_type_size(t);
  static const size_t bin_counts[] = {1, 7, 256, 1000, 65536};
  const size_t big = 262145;
  unsigned char *host = harness_malloc(big * es);
  for (size_t k = 0; k < sizeof bin_counts / sizeof bin_counts[0]; k++) {
    size_t bins = bin_counts[k];
    if (t == PRISM_U8 && bins > 255)
      bins = 255; /* 256 ascending byte edges at most */
    unsigned char *edges = harness_malloc((bins + 1) * es);
    for (int outer = 0; outer <= is_float(t); outer++) {
      double first, last;
      uneven_edges(t, bins, outer, edges, &first, &last);
      for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s += 3) {
        const size_t n = sizes[s];
        fill_around(t, first, last, n + k, host, n);
        /* Some samples exactly on edges. */
        for (size_t i = 0; i < n; i += 5)
          memcpy(host + i * es, edges + ((i * 31) % (bins + 1)) * es, es);
        check_range(ctx, t, host, n, bins, edges, s % 2 ? PRISM_U64 : PRISM_U32,
                    "uneven edges");
      }
      fill_around(t, first, last, 5, host, big);
      check_range(ctx, t, host, big, bins, edges, PRISM_U64, "uneven edges");
      vec_fill(t, t == PRISM_U8 ? VEC_SMALL : VEC_SPECIAL, 3, host, 8193);
      check_range(ctx, t, host, 8193, bins, edges, PRISM_U32, "vectors");
    }
    free(edges);
  }
  free(host);
  prism_context_destroy(ctx);
}

Test(histogram, range_u8) {
  range_suite(PRISM_U8);
}
Test(histogram, range_i32) {
  range_suite(PRISM_I32);
}
Test(histogram, range_u32) {
  range_suite(PRISM_U32);
}
Test(histogram, range_f32) {
  range_suite(PRISM_F32);
}
Test(histogram, range_i64) {
  range_suite(PRISM_I64);
}
Test(histogram, range_u64) {
  range_suite(PRISM_U64);
}
Test(histogram, range_f64) {
  range_suite(PRISM_F64);
}

/* n = 0 still overwrites every counter (with zeros). */
Test(histogram, empty) {
  prism_context *ctx = harness_context();
  double edges[4] = {0, 1, 2, 3};
  for (int k = 0; k < 2; k++) {
    const prism_type ct = k ? PRISM_U64 : PRISM_U32;
    const uint64_t zeros[1000] = {0};
    prism_buffer *ds = harness_poisoned(ctx, 16);
    prism_buffer *dc = harness_poisoned(ctx, 1000 * prism_type_size(ct));
    HARNESS_OK(
        ctx, prism_histogram_even(ctx, PRISM_U8, ds, 0, 1000, 0, 256, ct, dc));
    expect_counts(dc, ct, zeros, 1000, "empty even");
    prism_buffer_fill(dc, 0, "\xA5", 1, 3 * prism_type_size(ct));
    if (prism_context_supports(ctx, PRISM_F64)) {
      HARNESS_OK(
          ctx, prism_histogram_range(ctx, PRISM_F64, ds, 0, 3, edges, ct, dc));
      expect_counts(dc, ct, zeros, 3, "empty range");
    }
    prism_buffer_destroy(dc);
    prism_buffer_destroy(ds);
  }
  prism_context_destroy(ctx);
}

/* Samples at the bounds, one at a time and together. */
Test(histogram, bounds) {
  prism_context *ctx = harness_context();
  for (size_t k = 0; k < SAMPLE_TYPES; k++) {
    const prism_type t = sample_types[k];
    if (!prism_context_supports(ctx, t))
      continue;
    even_case cases[8];
    const size_t ncases = even_cases(t, cases);
    for (size_t c = 0; c < ncases; c++) {
      const even_case *e = &cases[c];
      double tlo, thi;
      type_bounds(t, &tlo, &thi);
      const double fv = is_float(t) ? 0.0 : 1.0;
      const double values[] = {e->lower,      e->lower - fv, e->upper,
                               e->upper - fv, tlo,           thi - 1};
      unsigned char host[8 * 16];
      size_t n = 0;
      for (size_t v = 0; v < 6; v++) {
        put(t, host, 0, values[v]);
        check_even(ctx, t, host, 1, e->bins, e->lower, e->upper, PRISM_U32,
                   "one sample at a bound");
        put(t, host, n++, values[v]);
      }
      if (is_float(t)) {
        const double more[] = {NAN, INFINITY, -INFINITY, -0.0};
        for (size_t v = 0; v < 4; v++)
          put(t, host, n++, more[v]);
        for (size_t v = 0; v < 2; v++) /* just below the bounds */
          put(t, host, n++,
              t == PRISM_F32 ? (double)step_f32((float)values[2 * v], -1)
                             : step_f64(values[2 * v], -1));
      }
      check_even(ctx, t, host, n, e->bins, e->lower, e->upper, PRISM_U64,
                 "samples at the bounds");
    }
  }
  prism_context_destroy(ctx);
}

/* Floats whose (x - lower) * scale rounds onto a bin edge: the bin is the
 * one that arithmetic in the sample type gives, on every backend. */
Test(histogram, float_rounding) {
  prism_context *ctx = harness_context();
  /* 0.7f * 10 is 6.9999999 exactly but 7 in float arithmetic. */
  const float f[] = {0.7f, 0.3f, 0.1f, 0.9f, 0.6f, 0.0f, -0.0f};
  cr_assert_eq(ref_histogram_even_bin(PRISM_F32, f, 0, 10, 0, 1), 7);
  cr_assert_eq((int)((double)0.7f * 10), 6);
  check_even(ctx, PRISM_F32, f, 7, 10, 0, 1, PRISM_U32, "onto an edge");
  /* Samples just below upper whose product rounds up to bins: capped. */
  size_t capped = 0;
  for (int k = 1; k < 2000 && capped < 4; k++) {
    const float up = (float)k * 0.001f + 0.3f;
    const float x[] = {step_f32(up, -1), up, 0.0f};
    if (ref_histogram_even_bin(PRISM_F32, x, 0, 7, 0, up) != 6)
      continue;
    if ((float)(x[0] * (7.0f / up)) < 7.0f)
      continue; /* not a rounding case */
    capped++;
    check_even(ctx, PRISM_F32, x, 3, 7, 0, up, PRISM_U64, "capped");
  }
  cr_assert_gt(capped, 0, "no float case that rounds up to bins found");
  if (prism_context_supports(ctx, PRISM_F64)) {
    const double d[] = {0.7, 0.3, 0.1, 0.9, 0.6, 0.0, -0.0};
    cr_assert_eq(ref_histogram_even_bin(PRISM_F64, d, 0, 10, 0, 1), 7);
    check_even(ctx, PRISM_F64, d, 7, 10, 0, 1, PRISM_U32, "onto an edge");
  }
  /* Many samples next to the edges of a 1000-bin histogram. */
  const size_t n = 1000 * 4;
  float *g = harness_malloc(n * sizeof *g);
  for (size_t i = 0; i < n; i++) {
    const float edge = (float)(i / 4) * (1.0f / 1000);
    g[i] = i % 2 ? step_f32(edge, (i % 4) < 2 ? -1 : 1) : edge;
  }
  check_even(ctx, PRISM_F32, g, n, 1000, 0, 1, PRISM_U32, "near edges");
  free(g);
  prism_context_destroy(ctx);
}

/* Every sample in one bin, and sorted input: long runs of one bin. */
Test(histogram, skewed) {
  prism_context *ctx = harness_context();
  const size_t n = (1u << 20) + 77;
  uint32_t *host = harness_malloc(n * sizeof *host);
  for (size_t i = 0; i < n; i++)
    host[i] = 12345;
  check_even(ctx, PRISM_U32, host, n, 1024, 0, 4294967296.0, PRISM_U32,
             "all in one bin");
  check_even(ctx, PRISM_U32, host, n, 1u << 20, 0, 1u << 20, PRISM_U64,
             "all in one bin, many bins");
  for (size_t i = 0; i < n; i++)
    host[i] = (uint32_t)(i * 3000);
  check_even(ctx, PRISM_U32, host, n, 256, 0, 4294967296.0, PRISM_U64,
             "sorted");
  unsigned char *bytes = harness_malloc(n);
  memset(bytes, 200, n);
  check_even(ctx, PRISM_U8, bytes, n, 256, 0, 256, PRISM_U32,
             "bytes in one bin");
  free(bytes);
  free(host);
  prism_context_destroy(ctx);
}

/* Bin counts past a work-group's local memory: split bin ranges, then
 * global atomics (GPU shapes), and tables past the scratch budget (CPU). */
Test(histogram, wide_bins) {
  prism_context *ctx = harness_context();
  const size_t n = 300007;
  uint32_t *host = harness_malloc(n * sizeof *host);
  fill_around(PRISM_U32, 0, 1u << 22, 9, host, n);
  static const size_t bins[] = {65536, 100003, 1u << 20, 1u << 22};
  for (size_t k = 0; k < sizeof bins / sizeof bins[0]; k++)
    check_even(ctx, PRISM_U32, host, n, bins[k], 0, 1u << 22,
               k % 2 ? PRISM_U32 : PRISM_U64, "wide");
  const size_t huge = (1u << 24) + 3;
  check_even(ctx, PRISM_U32, host, 1000, huge, 0, 4294967296.0, PRISM_U32,
             "huge");
  /* Ranged, with more edges than local memory holds. */
  const size_t rbins = 1u << 18;
  uint32_t *edges = harness_malloc((rbins + 1) * sizeof *edges);
  for (size_t b = 0; b <= rbins; b++)
    edges[b] = (uint32_t)(b * 13 + b * b / 1024);
  fill_around(PRISM_U32, 0, edges[rbins] + 1000.0, 4, host, n);
  check_range(ctx, PRISM_U32, host, n, rbins, edges, PRISM_U64, "wide");
  free(edges);
  free(host);
  prism_context_destroy(ctx);
}

Test(histogram, bad_input) {
  prism_context *ctx = harness_context(), *other = harness_context();
  prism_buffer *s = harness_poisoned(ctx, 4096), *c = harness_poisoned(ctx, 64);
  prism_buffer *foreign = harness_poisoned(other, 4096);
  prism_buffer *small = harness_poisoned(ctx, 16);
  const float edges[] = {0, 1, 2, 3};

  HARNESS_EXPECT(
      NULL, PRISM_NULL_POINTER, "ctx",
      prism_histogram_even(NULL, PRISM_U8, s, 10, 4, 0, 256, PRISM_U32, c));
  HARNESS_EXPECT(ctx, PRISM_INVALID_ARGUMENT, "sample_type",
                 prism_histogram_even(ctx, (prism_type)99, s, 10, 4, 0, 256,
                                      PRISM_U32, c));
  HARNESS_EXPECT(
      ctx, PRISM_INVALID_ARGUMENT, "bins",
      prism_histogram_even(ctx, PRISM_U8, s, 10, 0, 0, 256, PRISM_U32, c));
  HARNESS_EXPECT(ctx, PRISM_INVALID_ARGUMENT, "bins",
                 prism_histogram_even(ctx, PRISM_U8, s, 10,
                                      ((size_t)1 << 31) + 1, 0, 256, PRISM_U32,
                                      c));
  HARNESS_EXPECT(
      ctx, PRISM_INVALID_ARGUMENT, "counter_type",
      prism_histogram_even(ctx, PRISM_U8, s, 10, 4, 0, 256, PRISM_I32, c));
  HARNESS_EXPECT(
      ctx, PRISM_INVALID_ARGUMENT, "counter_type",
      prism_histogram_even(ctx, PRISM_U8, s, 10, 4, 0, 256, PRISM_F32, c));
  HARNESS_EXPECT(ctx, PRISM_INVALID_ARGUMENT, "counter_type",
                 prism_histogram_range(ctx, PRISM_F32, s, 10, 3, edges,
                                       (prism_type)77, c));
  /* More samples than u32 counters may count: said before the samples
   * buffer (far too small for this n) is looked at. */
  const size_t too_many = (size_t)UINT32_MAX + 1;
  HARNESS_EXPECT(ctx, PRISM_INVALID_ARGUMENT, "counter_type u64",
                 prism_histogram_even(ctx, PRISM_U8, s, too_many, 4, 0, 256,
                                      PRISM_U32, c));
  HARNESS_EXPECT(ctx, PRISM_INVALID_ARGUMENT, "counter_type u64",
                 prism_histogram_range(ctx, PRISM_F32, s, too_many, 3, edges,
                                       PRISM_U32, c));
  HARNESS_EXPECT(ctx, PRISM_BUFFER_TOO_SMALL, "samples",
                 prism_histogram_even(ctx, PRISM_U8, s, too_many, 4, 0, 256,
                                      PRISM_U64, c));

  /* Bounds. */
  HARNESS_EXPECT(
      ctx, PRISM_INVALID_ARGUMENT, "below upper",
      prism_histogram_even(ctx, PRISM_F32, s, 10, 4, 5, 5, PRISM_U32, c));
  HARNESS_EXPECT(
      ctx, PRISM_INVALID_ARGUMENT, "below upper",
      prism_histogram_even(ctx, PRISM_I32, s, 10, 4, 6, 5, PRISM_U32, c));
  HARNESS_EXPECT(
      ctx, PRISM_INVALID_ARGUMENT, "lower",
      prism_histogram_even(ctx, PRISM_F32, s, 10, 4, NAN, 5, PRISM_U32, c));
  HARNESS_EXPECT(ctx, PRISM_INVALID_ARGUMENT, "upper",
                 prism_histogram_even(ctx, PRISM_F32, s, 10, 4, 0, INFINITY,
                                      PRISM_U32, c));
  HARNESS_EXPECT(
      ctx, PRISM_INVALID_ARGUMENT, "upper",
      prism_histogram_even(ctx, PRISM_U32, s, 10, 4, 0, NAN, PRISM_U32, c));
  HARNESS_EXPECT(
      ctx, PRISM_INVALID_ARGUMENT, "whole",
      prism_histogram_even(ctx, PRISM_U32, s, 10, 4, 0.5, 100, PRISM_U32, c));
  HARNESS_EXPECT(
      ctx, PRISM_INVALID_ARGUMENT, "whole",
      prism_histogram_even(ctx, PRISM_I64, s, 10, 4, 0, 99.25, PRISM_U32, c));
  HARNESS_EXPECT(
      ctx, PRISM_INVALID_ARGUMENT, "upper",
      prism_histogram_even(ctx, PRISM_U8, s, 10, 4, 0, 257, PRISM_U32, c));
  HARNESS_EXPECT(
      ctx, PRISM_INVALID_ARGUMENT, "lower",
      prism_histogram_even(ctx, PRISM_U8, s, 10, 4, -1, 100, PRISM_U32, c));
  HARNESS_EXPECT(ctx, PRISM_INVALID_ARGUMENT, "lower",
                 prism_histogram_even(ctx, PRISM_I32, s, 10, 4, -2147483649.0,
                                      0, PRISM_U32, c));
  HARNESS_EXPECT(ctx, PRISM_INVALID_ARGUMENT, "upper",
                 prism_histogram_even(ctx, PRISM_U64, s, 10, 4, 0,
                                      36893488147419103232.0, PRISM_U32, c));
  HARNESS_EXPECT(
      ctx, PRISM_INVALID_ARGUMENT, "f32 range",
      prism_histogram_even(ctx, PRISM_F32, s, 10, 4, 0, 1e39, PRISM_U32, c));
  HARNESS_EXPECT(ctx, PRISM_INVALID_ARGUMENT, "equal as f32",
                 prism_histogram_even(ctx, PRISM_F32, s, 10, 4, 1, 1 + 1e-12,
                                      PRISM_U32, c));
  HARNESS_EXPECT(ctx, PRISM_INVALID_ARGUMENT, "overflows f32",
                 prism_histogram_even(ctx, PRISM_F32, s, 10, 4, -3e38, 3e38,
                                      PRISM_U32, c));
  HARNESS_EXPECT(
      ctx, PRISM_INVALID_ARGUMENT, "too narrow",
      prism_histogram_even(ctx, PRISM_F32, s, 10, 4, 0, 1e-44, PRISM_U32, c));

  /* Edges. */
  const float flat[] = {0, 1, 1, 2}, with_nan[] = {0, NAN, 2, 3};
  const float down[] = {0, 2, 1, 3};
  HARNESS_EXPECT(
      ctx, PRISM_NULL_POINTER, "edges",
      prism_histogram_range(ctx, PRISM_F32, s, 10, 3, NULL, PRISM_U32, c));
  HARNESS_EXPECT(
      ctx, PRISM_INVALID_ARGUMENT, "edges[1] >= edges[2]",
      prism_histogram_range(ctx, PRISM_F32, s, 10, 3, flat, PRISM_U32, c));
  HARNESS_EXPECT(
      ctx, PRISM_INVALID_ARGUMENT, "edges[1] >= edges[2]",
      prism_histogram_range(ctx, PRISM_F32, s, 10, 3, down, PRISM_U32, c));
  HARNESS_EXPECT(
      ctx, PRISM_INVALID_ARGUMENT, "edges[1] is NaN",
      prism_histogram_range(ctx, PRISM_F32, s, 10, 3, with_nan, PRISM_U32, c));
  const int32_t ints_down[] = {5, 4};
  HARNESS_EXPECT(
      ctx, PRISM_INVALID_ARGUMENT, "edges[0] >= edges[1]",
      prism_histogram_range(ctx, PRISM_I32, s, 10, 1, ints_down, PRISM_U32, c));

  /* Buffers. */
  HARNESS_EXPECT(
      ctx, PRISM_BUFFER_TOO_SMALL, "counts",
      prism_histogram_even(ctx, PRISM_U8, s, 10, 17, 0, 256, PRISM_U32, c));
  HARNESS_EXPECT(
      ctx, PRISM_BUFFER_TOO_SMALL, "counts",
      prism_histogram_range(ctx, PRISM_F32, s, 10, 3, edges, PRISM_U64, small));
  HARNESS_EXPECT(
      ctx, PRISM_BUFFER_TOO_SMALL, "samples",
      prism_histogram_even(ctx, PRISM_U32, s, 1025, 4, 0, 256, PRISM_U32, c));
  HARNESS_EXPECT(
      ctx, PRISM_NULL_POINTER, "samples",
      prism_histogram_even(ctx, PRISM_U32, NULL, 10, 4, 0, 256, PRISM_U32, c));
  HARNESS_EXPECT(
      ctx, PRISM_NULL_POINTER, "counts",
      prism_histogram_even(ctx, PRISM_U32, s, 10, 4, 0, 256, PRISM_U32, NULL));
  HARNESS_EXPECT(ctx, PRISM_CONTEXT_MISMATCH, "samples",
                 prism_histogram_even(ctx, PRISM_U32, foreign, 10, 4, 0, 256,
                                      PRISM_U32, c));
  HARNESS_EXPECT(ctx, PRISM_CONTEXT_MISMATCH, "counts",
                 prism_histogram_range(ctx, PRISM_F32, s, 10, 3, edges,
                                       PRISM_U32, foreign));
  if (!prism_context_supports(ctx, PRISM_F64))
    HARNESS_EXPECT(
        ctx, PRISM_UNSUPPORTED, "f64",
        prism_histogram_even(ctx, PRISM_F64, s, 10, 4, 0, 1, PRISM_U32, c));

  /* The context is still usable. */
  const uint8_t bytes[] = {0, 1, 2, 3, 255, 128, 64};
  check_even(ctx, PRISM_U8, bytes, 7, 4, 0, 256, PRISM_U32, "after errors");
  prism_context_destroy(other);
  prism_context_destroy(ctx);
}
