/* SPDX-License-Identifier: MIT */
/*
 * prism_segmented_scan_flags, prism_segmented_scan_offsets and
 * prism_segmented_reduce against the serial reference: every type,
 * operator and kind; every flag and offset type; segment layouts from one
 * segment to all heads, empty segments, skewed lengths; sizes around the
 * tile sizes of both backends; bad offsets, checked and not; bad
 * arguments.
 */
#include "harness.h"
#include "ref_scan.h"
#include "ref_segmented.h"
#include "vectors.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int harness_needs_backend = 1;

/* Bytes past the end of every output that must stay poisoned. */
#define GUARD_BYTES 64

static const prism_type flag_types[] = {PRISM_U8, PRISM_I32, PRISM_U32,
                                        PRISM_I64, PRISM_U64};
static const prism_type offset_types[] = {PRISM_U32, PRISM_I32, PRISM_U64,
                                          PRISM_I64};

/* Around the tiles of both backends (scans: CUDA 2048 elements, OpenCL
 * GPU policy 3840 / 1792; the reduce's merge tiles hold elements and
 * bounds, so they fall anywhere), with look-back chains of more than one
 * window of predecessors at the larger sizes. */
static const size_t sizes[] = {
    1,    2,    3,    5,    31,   32,   33,    255,   256,   257,   1023, 1024,
    1025, 1791, 1792, 1793, 2047, 2048, 2049,  3071,  3072,  3073,  3839, 3840,
    3841, 4095, 4097, 6143, 6145, 8191, 12289, 24577, 65537, 100003};
#define SIZES_COUNT (sizeof sizes / sizeof sizes[0])

/* Segment layouts: how [first, last) of [0, n) is cut into segments. */
typedef enum layout {
  L_ONE,       /* one segment over everything */
  L_ALL_HEADS, /* every element its own segment */
  L_SHORT,     /* lengths 0..8, empty segments included */
  L_MIXED,     /* mostly 0..3, now and then up to n / 3 */
  L_SKEW,      /* one segment holds most of the data, tiny ones around */
  L_FIXED,     /* equal lengths near a tile size */
  L_COUNT
} layout;

static const char *layout_name(layout l) {
  static const char *const names[L_COUNT] = {"one",   "all-heads", "short",
                                             "mixed", "skew",      "fixed"};
  return names[l];
}

/* Bounds b[0..*count] of the segments over [first, last): b[0] = first,
 * b[*count] = last, non-decreasing. b holds room for last - first + 64
 * bounds at least. */
static void make_bounds(layout l, size_t first, size_t last, uint64_t seed,
                        size_t *b, size_t *count) {
  size_t span = last - first, k = 0, at = first;
  uint64_t rng = seed * 0x9E3779B97F4A7C15ull + l;
  b[k++] = at;
  while (at < last) {
    size_t len;
    uint64_t r = vec_next(&rng);
    switch (l) {
    case L_ONE:
      len = span;
      break;
    case L_ALL_HEADS:
      len = 1;
      break;
    case L_SHORT:
      len = r % 9;
      break;
    case L_MIXED:
      len = r % 61 == 0 ? 1 + (size_t)(r >> 8) % (span / 3 + 1) : r % 4;
      break;
    case L_SKEW:
      len = k == 3 ? span - span / 8 : r % 3;
      break;
    default:
      len = 1021 + r % 7;
      break;
    }
    /* Bounded count: after 2 * span + 32 segments, no more empty ones. */
    if (len == 0 && k > 2 * span + 32)
      len = 1;
    at = at + len > last ? last : at + len;
    b[k++] = at;
  }
  if (k == 1) /* an empty range: one empty segment */
    b[k++] = at;
  *count = k - 1;
}

static void set_offset(prism_type t, void *o, size_t i, int64_t v) {
  switch (t) {
  case PRISM_U32:
    ((uint32_t *)o)[i] = (uint32_t)v;
    break;
  case PRISM_I32:
    ((int32_t *)o)[i] = (int32_t)v;
    break;
  case PRISM_I64:
    ((int64_t *)o)[i] = v;
    break;
  default:
    ((uint64_t *)o)[i] = (uint64_t)v;
    break;
  }
}

/* A non-zero flag of the type; some have all low bits clear, so a flag
 * read narrower than its type would be missed. */
static void set_flag(prism_type t, void *f, size_t i, uint64_t r, int on) {
  static const uint64_t wide[] = {1, 1ull << 63, 1ull << 32, 0x100,
                                  0xffffffffffffffffull};
  static const uint32_t narrow[] = {1, 0x80000000u, 0x10000u, 0xffffffffu, 7};
  static const uint8_t bytes[] = {1, 0x80, 0xff, 0x10, 3};
  switch (t) {
  case PRISM_U8:
    ((uint8_t *)f)[i] = on ? bytes[r % 5] : 0;
    break;
  case PRISM_I32:
  case PRISM_U32:
    ((uint32_t *)f)[i] = on ? narrow[r % 5] : 0;
    break;
  default:
    ((uint64_t *)f)[i] = on ? wide[r % 5] : 0;
    break;
  }
}

static int is_float(prism_type t) {
  return t == PRISM_F32 || t == PRISM_F64;
}

/* A data pattern for the case: cycles through those that apply. */
static vec_pattern pick_pattern(prism_type type, size_t salt) {
  for (;;) {
    vec_pattern p = (vec_pattern)(salt++ % VEC_PATTERN_COUNT);
    if (vec_pattern_applies(p, type))
      return p;
  }
}

static void check_guard(const unsigned char *bytes, size_t from,
                        const char *what) {
  for (size_t i = 0; i < GUARD_BYTES; i++)
    cr_assert_eq(bytes[from + i], HARNESS_POISON,
                 "%s: byte %zu past the end was written", what, i);
}

/* Float sums on exact data (small integers) compare without tolerance. */
static double *tolerances(prism_type type, prism_op op, vec_pattern p,
                          size_t count) {
  if (op != PRISM_SUM || !is_float(type) || p == VEC_SMALL)
    return NULL;
  return harness_malloc((count ? count : 1) * sizeof(double));
}

static void compare(prism_type type, prism_op op, const void *got,
                    const void *want, const double *tol, size_t count,
                    const char *what) {
  char msg[256];
  size_t bad = ref_compare(type, op, got, want, tol, count, msg, sizeof msg);
  cr_assert_eq(bad, count, "%s: %s", what, msg);
}

/* ---- scan by flags ------------------------------------------------------ */

static void check_flags(prism_context *ctx, prism_type type, prism_op op,
                        prism_scan_kind kind, prism_type flag_type, layout l,
                        size_t n, vec_pattern pattern, int in_place) {
  const size_t size = prism_type_size(type), fsize = prism_type_size(flag_type);
  const size_t bytes = n * size;
  void *host = harness_malloc(bytes), *want = harness_malloc(bytes);
  void *flags = harness_malloc(n * fsize);
  size_t *b = harness_malloc((2 * n + 128) * sizeof *b), count = 0;
  double *tol = tolerances(type, op, pattern, n);
  vec_fill(type, pattern, n + l, host, n);
  make_bounds(l, 0, n, n, b, &count);
  uint64_t rng = n ^ 0x5eed;
  for (size_t i = 0; i < n; i++)
    set_flag(flag_type, flags, i, vec_next(&rng), 0);
  for (size_t s = 0; s <= count; s++)
    if (b[s] < n && (b[s] > 0 || n % 2)) /* flag 0 set or not */
      set_flag(flag_type, flags, b[s], vec_next(&rng), 1);
  ref_segmented_scan_flags(type, op, kind, host, flag_type, flags, want, n,
                           tol);

  prism_buffer *in = harness_poisoned(ctx, bytes + GUARD_BYTES);
  HARNESS_OK(ctx, prism_buffer_write(in, 0, host, bytes));
  prism_buffer *dflags = harness_upload(ctx, flags, n * fsize);
  prism_buffer *out =
      in_place ? in : harness_poisoned(ctx, bytes + GUARD_BYTES);
  HARNESS_OK(ctx, prism_segmented_scan_flags(ctx, type, op, kind, in, flag_type,
                                             dflags, out, n));
  unsigned char *got = harness_download(out);
  char what[200];
  snprintf(what, sizeof what,
           "scan_flags %s %s %s, %s flags, %s, %s, n = %zu%s",
           prism_type_name(type), prism_op_name(op),
           kind == PRISM_INCLUSIVE ? "inclusive" : "exclusive",
           prism_type_name(flag_type), layout_name(l),
           vec_pattern_name(pattern), n, in_place ? ", in place" : "");
  compare(type, op, got, want, tol, n, what);
  check_guard(got, bytes, what);
  free(got);
  if (!in_place)
    prism_buffer_destroy(out);
  prism_buffer_destroy(dflags);
  prism_buffer_destroy(in);
  free(tol);
  free(b);
  free(flags);
  free(want);
  free(host);
}

static void flags_suite(prism_type type, prism_op op, prism_scan_kind kind) {
  prism_context *ctx = harness_context();
  harness_require_type(ctx, type);
  for (size_t s = 0; s < SIZES_COUNT; s++)
    for (int k = 0; k < 2; k++) {
      layout l = (layout)((s + 3 * k) % L_COUNT);
      prism_type ft = flag_types[(s + k) % 5];
      check_flags(ctx, type, op, kind, ft, l, sizes[s],
                  pick_pattern(type, s * 2 + k), k && s % 3 == 0);
    }
  check_flags(ctx, type, op, kind, PRISM_U8, L_MIXED, 1000003,
              pick_pattern(type, 1), 0);
  prism_context_destroy(ctx);
}

/* ---- scan by offsets ---------------------------------------------------- */

/* Offsets of the layout over [first, last) of [0, n); *count segments. */
static void *layout_offsets(prism_type ot, layout l, size_t n, size_t first,
                            size_t last, size_t *count) {
  size_t *b = harness_malloc((2 * n + 128) * sizeof *b);
  make_bounds(l, first, last, n * 3 + 1, b, count);
  void *o = harness_malloc((*count + 1) * prism_type_size(ot));
  for (size_t s = 0; s <= *count; s++)
    set_offset(ot, o, s, (int64_t)b[s]);
  free(b);
  return o;
}

/* Runs the scan by offsets on device copies; returns the output (n
 * elements and the guard) and stores what the call returned. */
static unsigned char *run_scan_offsets(prism_context *ctx, prism_type type,
                                       prism_op op, prism_scan_kind kind,
                                       const void *host, const void *start,
                                       size_t n, prism_type ot,
                                       const void *offsets, size_t count,
                                       int checked, int in_place,
                                       prism_status *st, size_t *first_bad) {
  const size_t bytes = n * prism_type_size(type);
  prism_buffer *in = harness_poisoned(ctx, bytes + GUARD_BYTES);
  HARNESS_OK(ctx, prism_buffer_write(in, 0, in_place ? start : host, bytes));
  prism_buffer *out = in;
  if (!in_place) {
    out = harness_poisoned(ctx, bytes + GUARD_BYTES);
    HARNESS_OK(ctx, prism_buffer_write(out, 0, start, bytes));
  }
  prism_buffer *doff =
      harness_upload(ctx, offsets, (count + 1) * prism_type_size(ot));
  *st = prism_segmented_scan_offsets(ctx, type, op, kind, in, out, n, ot, doff,
                                     count, checked, first_bad);
  unsigned char *got = harness_download(out);
  prism_buffer_destroy(doff);
  if (!in_place)
    prism_buffer_destroy(out);
  prism_buffer_destroy(in);
  return got;
}

static void check_offsets(prism_context *ctx, prism_type type, prism_op op,
                          prism_scan_kind kind, prism_type ot, layout l,
                          size_t n, size_t margin, vec_pattern pattern,
                          int in_place) {
  const size_t size = prism_type_size(type), bytes = n * size;
  void *host = harness_malloc(bytes), *want = harness_malloc(bytes);
  void *start = harness_malloc(bytes);
  double *tol = tolerances(type, op, pattern, n);
  vec_fill(type, pattern, n + 2 * l, host, n);
  /* What out holds before: the input (in place) or other data. */
  if (in_place)
    memcpy(start, host, bytes);
  else
    vec_fill(type, VEC_DESCENDING, n, start, n);
  memcpy(want, start, bytes);
  size_t first = margin < n ? margin : n, last = n - first / 2, count = 0;
  void *offsets = layout_offsets(ot, l, n, first, last, &count);
  ref_segmented_scan_segments(type, op, kind, host, want, n, ot, offsets, count,
                              tol);

  prism_status st;
  size_t first_bad = 7;
  unsigned char *got =
      run_scan_offsets(ctx, type, op, kind, host, start, n, ot, offsets, count,
                       (int)(n % 2), in_place, &st, &first_bad);
  char what[220];
  snprintf(what, sizeof what,
           "scan_offsets %s %s %s, %s offsets, %s, %zu segments in [%zu, "
           "%zu), %s, n = %zu%s",
           prism_type_name(type), prism_op_name(op),
           kind == PRISM_INCLUSIVE ? "inclusive" : "exclusive",
           prism_type_name(ot), layout_name(l), count, first, last,
           vec_pattern_name(pattern), n, in_place ? ", in place" : "");
  cr_assert_eq(st, PRISM_OK, "%s: %s", what, prism_context_last_error(ctx));
  if (n % 2)
    cr_assert_eq(first_bad, SIZE_MAX, "%s: first_bad %zu", what, first_bad);
  compare(type, op, got, want, tol, n, what);
  check_guard(got, bytes, what);
  free(got);
  free(offsets);
  free(tol);
  free(start);
  free(want);
  free(host);
}

static void offsets_suite(prism_type type, prism_op op, prism_scan_kind kind) {
  prism_context *ctx = harness_context();
  harness_require_type(ctx, type);
  for (size_t s = 0; s < SIZES_COUNT; s++)
    for (int k = 0; k < 2; k++) {
      layout l = (layout)((s + 2 * k + 1) % L_COUNT);
      prism_type ot = offset_types[(s + k) % 4];
      size_t margin = k ? sizes[s] / 5 : 0;
      check_offsets(ctx, type, op, kind, ot, l, sizes[s], margin,
                    pick_pattern(type, s * 2 + k + 1), k && s % 3 == 1);
    }
  check_offsets(ctx, type, op, kind, PRISM_I64, L_SKEW, 1000003, 17,
                pick_pattern(type, 2), 0);
  prism_context_destroy(ctx);
}

/* ---- reduce ------------------------------------------------------------- */

/* Runs the reduce; returns out (count elements and the guard). */
static unsigned char *run_reduce(prism_context *ctx, prism_type type,
                                 prism_op op, const void *host, size_t n,
                                 prism_type ot, const void *offsets,
                                 size_t count, int checked, prism_status *st,
                                 size_t *first_bad) {
  const size_t size = prism_type_size(type);
  prism_buffer *in = harness_upload(ctx, host, n * size);
  prism_buffer *doff =
      harness_upload(ctx, offsets, (count + 1) * prism_type_size(ot));
  prism_buffer *out = harness_poisoned(ctx, count * size + GUARD_BYTES);
  *st = prism_segmented_reduce(ctx, type, op, in, n, ot, doff, count, out,
                               checked, first_bad);
  unsigned char *got = harness_download(out);
  prism_buffer_destroy(out);
  prism_buffer_destroy(doff);
  prism_buffer_destroy(in);
  return got;
}

static void check_reduce(prism_context *ctx, prism_type type, prism_op op,
                         prism_type ot, layout l, size_t n, size_t margin,
                         vec_pattern pattern) {
  const size_t size = prism_type_size(type);
  void *host = harness_malloc(n * size);
  vec_fill(type, pattern, n + 3 * l, host, n);
  size_t first = margin < n ? margin : n, last = n - first / 3, count = 0;
  void *offsets = layout_offsets(ot, l, n, first, last, &count);
  void *want = harness_malloc(count * size);
  double *tol = tolerances(type, op, pattern, count);
  ref_segmented_reduce(type, op, host, n, ot, offsets, count, want, tol);

  prism_status st;
  size_t first_bad = 7;
  const int checked = (int)(n % 2);
  unsigned char *got = run_reduce(ctx, type, op, host, n, ot, offsets, count,
                                  checked, &st, &first_bad);
  char what[200];
  snprintf(what, sizeof what,
           "reduce %s %s, %s offsets, %s, %zu segments in [%zu, %zu), %s, "
           "n = %zu",
           prism_type_name(type), prism_op_name(op), prism_type_name(ot),
           layout_name(l), count, first, last, vec_pattern_name(pattern), n);
  cr_assert_eq(st, PRISM_OK, "%s: %s", what, prism_context_last_error(ctx));
  if (checked)
    cr_assert_eq(first_bad, SIZE_MAX, "%s: first_bad %zu", what, first_bad);
  compare(type, op, got, want, tol, count, what);
  check_guard(got, count * size, what);
  free(got);
  free(tol);
  free(want);
  free(offsets);
  free(host);
}

static void reduce_suite(prism_type type, prism_op op) {
  prism_context *ctx = harness_context();
  harness_require_type(ctx, type);
  for (size_t s = 0; s < SIZES_COUNT; s++)
    for (int k = 0; k < 3; k++) {
      layout l = (layout)((s + 2 * k) % L_COUNT);
      prism_type ot = offset_types[(s + k) % 4];
      size_t margin = k == 2 ? sizes[s] / 4 + 1 : 0;
      check_reduce(ctx, type, op, ot, l, sizes[s], margin,
                   pick_pattern(type, s * 3 + k));
    }
  /* Empty input: every segment empty. One huge segment; tiny ones. */
  check_reduce(ctx, type, op, PRISM_U32, L_SHORT, 0, 0, VEC_SMALL);
  check_reduce(ctx, type, op, PRISM_U64, L_ONE, 1000003, 0,
               pick_pattern(type, 5));
  check_reduce(ctx, type, op, PRISM_I32, L_SHORT, 1000003, 3,
               pick_pattern(type, 6));
  prism_context_destroy(ctx);
}

/* ---- tests per type, operator, kind ------------------------------------- */

#define SEG_SCAN_TEST(T, O, K)                                                 \
  Test(segmented, flags_##T##_##O##_##K) {                                     \
    flags_suite(PRISM_##T, PRISM_##O, PRISM_##K);                              \
  }                                                                            \
  Test(segmented, offsets_##T##_##O##_##K) {                                   \
    offsets_suite(PRISM_##T, PRISM_##O, PRISM_##K);                            \
  }
#define SEG_TESTS_FOR_TYPE(T)                                                  \
  SEG_SCAN_TEST(T, SUM, INCLUSIVE)                                             \
  SEG_SCAN_TEST(T, SUM, EXCLUSIVE)                                             \
  SEG_SCAN_TEST(T, MIN, INCLUSIVE)                                             \
  SEG_SCAN_TEST(T, MIN, EXCLUSIVE)                                             \
  SEG_SCAN_TEST(T, MAX, INCLUSIVE)                                             \
  SEG_SCAN_TEST(T, MAX, EXCLUSIVE)                                             \
  Test(segmented, reduce_##T##_SUM) {                                          \
    reduce_suite(PRISM_##T, PRISM_SUM);                                        \
  }                                                                            \
  Test(segmented, reduce_##T##_MIN) {                                          \
    reduce_suite(PRISM_##T, PRISM_MIN);                                        \
  }                                                                            \
  Test(segmented, reduce_##T##_MAX) {                                          \
    reduce_suite(PRISM_##T, PRISM_MAX);                                        \
  }

SEG_TESTS_FOR_TYPE(I32)
SEG_TESTS_FOR_TYPE(U32)
SEG_TESTS_FOR_TYPE(F32)
SEG_TESTS_FOR_TYPE(I64)
SEG_TESTS_FOR_TYPE(U64)
SEG_TESTS_FOR_TYPE(F64)

/* Every flag type and every offset type on one element type, every
 * layout, at a size of several tiles. */
Test(segmented, every_flag_and_offset_type) {
  prism_context *ctx = harness_context();
  for (int l = 0; l < L_COUNT; l++) {
    for (size_t f = 0; f < 5; f++)
      check_flags(ctx, PRISM_I32, PRISM_SUM, PRISM_INCLUSIVE, flag_types[f],
                  (layout)l, 20011, VEC_SMALL, 0);
    for (size_t o = 0; o < 4; o++) {
      check_offsets(ctx, PRISM_U64, PRISM_MAX, PRISM_EXCLUSIVE, offset_types[o],
                    (layout)l, 20011, 1 + 100 * o, VEC_RANDOM, 0);
      check_reduce(ctx, PRISM_F32, PRISM_SUM, offset_types[o], (layout)l, 20011,
                   50 * o, VEC_SMALL);
    }
  }
  prism_context_destroy(ctx);
}

/* ---- bad offsets -------------------------------------------------------- */

/* Offsets with bad segments: mode 0 monotone, bad only at the ends
 * (negative or past n); mode 1 random values in [-n / 8, n + n / 8],
 * decreasing often (good segments overlap); mode 2 good but for one
 * decreasing pair in the middle. Unsigned types wrap negatives. */
static void *bad_offsets(prism_type ot, size_t n, int mode, size_t *count) {
  size_t s_count = mode == 1 ? n / 16 + 3 : 0;
  int64_t *v;
  uint64_t rng = n * 31 + (uint64_t)mode;
  if (mode == 1) {
    v = harness_malloc((s_count + 1) * sizeof *v);
    for (size_t s = 0; s <= s_count; s++)
      v[s] = (int64_t)(vec_next(&rng) % (n + n / 4 + 1)) - (int64_t)(n / 8);
  } else {
    size_t *b = harness_malloc((2 * n + 128) * sizeof *b);
    make_bounds(L_SHORT, 0, n, n, b, &s_count);
    v = harness_malloc((s_count + 3) * sizeof *v);
    for (size_t s = 0; s <= s_count; s++)
      v[s] = (int64_t)b[s];
    free(b);
    if (mode == 0) { /* a segment before 0 and one past n */
      v[0] = -5;
      v[s_count] = (int64_t)n + 3;
    } else { /* the middle bound drops below its predecessor */
      size_t m = s_count / 2;
      v[m] = v[m - 1] > 2 ? v[m - 1] - 2 : 0;
      if (v[m] == v[m - 1])
        v[m - 1] += 1;
    }
  }
  void *o = harness_malloc((s_count + 1) * prism_type_size(ot));
  for (size_t s = 0; s <= s_count; s++)
    set_offset(ot, o, s, v[s]);
  free(v);
  *count = s_count;
  return o;
}

static void check_bad_offsets(prism_context *ctx, prism_type type, prism_op op,
                              prism_type ot, size_t n, int mode, int checked) {
  const size_t size = prism_type_size(type), bytes = n * size;
  size_t count = 0;
  void *offsets = bad_offsets(ot, n, mode, &count);
  const size_t bad = ref_first_bad(ot, offsets, count, n);
  void *host = harness_malloc(bytes), *start = harness_malloc(bytes);
  void *want = harness_malloc(bytes > count * size ? bytes : count * size);
  vec_fill(type, VEC_SMALL, n, host, n);
  vec_fill(type, VEC_RANDOM, n + 1, start, n);
  char what[200];
  snprintf(what, sizeof what, "%s %s, %s offsets, mode %d, n = %zu%s",
           prism_type_name(type), prism_op_name(op), prism_type_name(ot), mode,
           n, checked ? ", checked" : "");
  cr_assert_neq(bad, SIZE_MAX, "%s: the offsets have no bad segment", what);

  for (int kind = 0; kind < 2; kind++) {
    memcpy(want, start, bytes);
    ref_segmented_scan_offsets(type, op, (prism_scan_kind)kind, host, want, n,
                               ot, offsets, count, NULL);
    prism_status st;
    size_t first_bad = 7;
    unsigned char *got =
        run_scan_offsets(ctx, type, op, (prism_scan_kind)kind, host, start, n,
                         ot, offsets, count, checked, 0, &st, &first_bad);
    if (checked) {
      char needle[64];
      snprintf(needle, sizeof needle, "segment %zu ", bad);
      cr_assert_eq(st, PRISM_INVALID_ARGUMENT, "scan %s", what);
      cr_assert_eq(first_bad, bad, "scan %s: first_bad %zu, want %zu", what,
                   first_bad, bad);
      cr_assert(strstr(prism_context_last_error(ctx), needle),
                "scan %s: message '%s'", what, prism_context_last_error(ctx));
    } else {
      cr_assert_eq(st, PRISM_OK, "scan %s: %s", what,
                   prism_context_last_error(ctx));
    }
    compare(type, op, got, want, NULL, n, what);
    check_guard(got, bytes, what);
    free(got);
  }

  ref_segmented_reduce(type, op, host, n, ot, offsets, count, want, NULL);
  prism_status st;
  size_t first_bad = 7;
  unsigned char *got = run_reduce(ctx, type, op, host, n, ot, offsets, count,
                                  checked, &st, &first_bad);
  cr_assert_eq(st, checked ? PRISM_INVALID_ARGUMENT : PRISM_OK, "reduce %s: %s",
               what, prism_context_last_error(ctx));
  if (checked)
    cr_assert_eq(first_bad, bad, "reduce %s: first_bad %zu, want %zu", what,
                 first_bad, bad);
  compare(type, op, got, want, NULL, count, what);
  check_guard(got, count * size, what);
  free(got);
  free(want);
  free(start);
  free(host);
  free(offsets);
}

Test(segmented, bad_offsets) {
  prism_context *ctx = harness_context();
  static const size_t ns[] = {40, 3000, 50021};
  for (size_t i = 0; i < 3; i++)
    for (int mode = 0; mode < 3; mode++)
      for (size_t o = 0; o < 4; o++)
        check_bad_offsets(ctx, o % 2 ? PRISM_I64 : PRISM_F32,
                          (prism_op)((o + mode) % 3), offset_types[o], ns[i],
                          mode, (int)((o + i) % 2));
  /* The context still works. */
  check_reduce(ctx, PRISM_I32, PRISM_SUM, PRISM_U32, L_MIXED, 5000, 0,
               VEC_SMALL);
  prism_context_destroy(ctx);
}

/* The identity for every bad segment, and the scan leaves everything. */
Test(segmented, all_segments_bad) {
  prism_context *ctx = harness_context();
  const int32_t offsets[] = {9, 3, 100, -4, -2, 7, 7};
  const size_t count = 6, n = 8;
  int32_t host[8] = {1, 2, 3, 4, 5, 6, 7, 8};
  prism_status st;
  size_t first_bad = 7;
  /* Segments: [9,3) [3,100) [100,-4) [-4,-2) [-2,7) bad; [7,7) empty. */
  unsigned char *got = run_reduce(ctx, PRISM_I32, PRISM_MIN, host, n, PRISM_I32,
                                  offsets, count, 1, &st, &first_bad);
  cr_assert_eq(st, PRISM_INVALID_ARGUMENT);
  cr_assert_eq(first_bad, 0);
  for (size_t s = 0; s < count; s++) {
    int32_t v;
    memcpy(&v, got + 4 * s, 4);
    cr_assert_eq(v, INT32_MAX, "out[%zu] = %d", s, v);
  }
  check_guard(got, count * 4, "all bad reduce");
  free(got);
  got = run_scan_offsets(ctx, PRISM_I32, PRISM_SUM, PRISM_INCLUSIVE, host, host,
                         n, PRISM_I32, offsets, count, 0, 0, &st, &first_bad);
  cr_assert_eq(st, PRISM_OK);
  cr_assert(memcmp(got, host, sizeof host) == 0, "the scan wrote elements");
  free(got);
  prism_context_destroy(ctx);
}

/* ---- bad arguments ------------------------------------------------------ */

Test(segmented, bad_input) {
  prism_context *ctx = harness_context(), *other = harness_context();
  prism_buffer *a = harness_poisoned(ctx, 800), *b = harness_poisoned(ctx, 800);
  prism_buffer *f = harness_poisoned(ctx, 800),
               *small = harness_poisoned(ctx, 8);
  prism_buffer *foreign = harness_poisoned(other, 800);
  const uint32_t good[] = {0, 4, 10};
  prism_buffer *o = harness_upload(ctx, good, sizeof good);
  const prism_op O = PRISM_SUM;
  const prism_scan_kind K = PRISM_INCLUSIVE;

  /* scan by flags */
  HARNESS_EXPECT(ctx, PRISM_NULL_POINTER, "in",
                 prism_segmented_scan_flags(ctx, PRISM_I32, O, K, NULL,
                                            PRISM_U8, f, b, 10));
  HARNESS_EXPECT(ctx, PRISM_NULL_POINTER, "flags",
                 prism_segmented_scan_flags(ctx, PRISM_I32, O, K, a, PRISM_U8,
                                            NULL, b, 10));
  HARNESS_EXPECT(ctx, PRISM_NULL_POINTER, "out",
                 prism_segmented_scan_flags(ctx, PRISM_I32, O, K, a, PRISM_U8,
                                            f, NULL, 10));
  HARNESS_EXPECT(
      NULL, PRISM_NULL_POINTER, "ctx",
      prism_segmented_scan_flags(NULL, PRISM_I32, O, K, a, PRISM_U8, f, b, 10));
  HARNESS_EXPECT(ctx, PRISM_INVALID_ARGUMENT, "type",
                 prism_segmented_scan_flags(ctx, (prism_type)99, O, K, a,
                                            PRISM_U8, f, b, 10));
  HARNESS_EXPECT(
      ctx, PRISM_UNSUPPORTED, "u8",
      prism_segmented_scan_flags(ctx, PRISM_U8, O, K, a, PRISM_U8, f, b, 10));
  HARNESS_EXPECT(ctx, PRISM_INVALID_ARGUMENT, "op",
                 prism_segmented_scan_flags(ctx, PRISM_I32, (prism_op)7, K, a,
                                            PRISM_U8, f, b, 10));
  HARNESS_EXPECT(ctx, PRISM_INVALID_ARGUMENT, "kind",
                 prism_segmented_scan_flags(ctx, PRISM_I32, O,
                                            (prism_scan_kind)5, a, PRISM_U8, f,
                                            b, 10));
  HARNESS_EXPECT(
      ctx, PRISM_INVALID_ARGUMENT, "flag_type",
      prism_segmented_scan_flags(ctx, PRISM_I32, O, K, a, PRISM_F32, f, b, 10));
  HARNESS_EXPECT(ctx, PRISM_INVALID_ARGUMENT, "flag_type",
                 prism_segmented_scan_flags(ctx, PRISM_I32, O, K, a,
                                            (prism_type)-1, f, b, 10));
  HARNESS_EXPECT(
      ctx, PRISM_BUFFER_TOO_SMALL, "in",
      prism_segmented_scan_flags(ctx, PRISM_I64, O, K, a, PRISM_U8, f, b, 101));
  HARNESS_EXPECT(ctx, PRISM_BUFFER_TOO_SMALL, "flags",
                 prism_segmented_scan_flags(ctx, PRISM_I32, O, K, a, PRISM_U64,
                                            f, b, 101));
  HARNESS_EXPECT(ctx, PRISM_BUFFER_TOO_SMALL, "out",
                 prism_segmented_scan_flags(ctx, PRISM_I32, O, K, a, PRISM_U8,
                                            f, small, 10));
  HARNESS_EXPECT(ctx, PRISM_CONTEXT_MISMATCH, "flags",
                 prism_segmented_scan_flags(ctx, PRISM_I32, O, K, a, PRISM_U8,
                                            foreign, b, 10));
  HARNESS_EXPECT(
      ctx, PRISM_INVALID_ARGUMENT, "same buffer",
      prism_segmented_scan_flags(ctx, PRISM_I32, O, K, a, PRISM_U32, b, b, 10));
  HARNESS_OK(ctx, prism_segmented_scan_flags(ctx, PRISM_I32, O, K, a, PRISM_U8,
                                             f, b, 0));

  /* scan by offsets */
  size_t first_bad = 3;
  HARNESS_EXPECT(ctx, PRISM_NULL_POINTER, "offsets",
                 prism_segmented_scan_offsets(ctx, PRISM_I32, O, K, a, b, 10,
                                              PRISM_U32, NULL, 2, 1,
                                              &first_bad));
  HARNESS_EXPECT(ctx, PRISM_INVALID_ARGUMENT, "offset_type",
                 prism_segmented_scan_offsets(ctx, PRISM_I32, O, K, a, b, 10,
                                              PRISM_U8, o, 2, 0, NULL));
  HARNESS_EXPECT(ctx, PRISM_INVALID_ARGUMENT, "offset_type",
                 prism_segmented_scan_offsets(ctx, PRISM_I32, O, K, a, b, 10,
                                              PRISM_F64, o, 2, 0, NULL));
  HARNESS_EXPECT(ctx, PRISM_BUFFER_TOO_SMALL, "offsets",
                 prism_segmented_scan_offsets(ctx, PRISM_I32, O, K, a, b, 10,
                                              PRISM_U32, o, 3, 0, NULL));
  HARNESS_EXPECT(ctx, PRISM_BUFFER_TOO_SMALL, "offsets",
                 prism_segmented_scan_offsets(ctx, PRISM_I32, O, K, a, b, 10,
                                              PRISM_U64, o, 2, 0, NULL));
  HARNESS_EXPECT(ctx, PRISM_BUFFER_TOO_SMALL, "out",
                 prism_segmented_scan_offsets(ctx, PRISM_I32, O, K, a, small,
                                              10, PRISM_U32, o, 2, 0, NULL));
  HARNESS_EXPECT(ctx, PRISM_CONTEXT_MISMATCH, "in",
                 prism_segmented_scan_offsets(ctx, PRISM_I32, O, K, foreign, b,
                                              10, PRISM_U32, o, 2, 0, NULL));
  HARNESS_EXPECT(ctx, PRISM_INVALID_ARGUMENT, "num_segments",
                 prism_segmented_scan_offsets(ctx, PRISM_I32, O, K, a, b, 10,
                                              PRISM_U32, o, SIZE_MAX, 0, NULL));
  HARNESS_EXPECT(ctx, PRISM_INVALID_ARGUMENT, "same buffer",
                 prism_segmented_scan_offsets(ctx, PRISM_I32, O, K, a, o, 3,
                                              PRISM_U32, o, 2, 0, NULL));
  cr_assert_eq(first_bad, SIZE_MAX, "first_bad is reset on failure");
  /* No segments, or no elements: nothing happens. */
  first_bad = 3;
  HARNESS_OK(ctx, prism_segmented_scan_offsets(ctx, PRISM_I32, O, K, a, b, 10,
                                               PRISM_U32, o, 0, 1, &first_bad));
  cr_assert_eq(first_bad, SIZE_MAX);
  HARNESS_OK(ctx, prism_segmented_scan_offsets(ctx, PRISM_I32, O, K, a, b, 0,
                                               PRISM_U32, o, 2, 1, NULL));
  unsigned char *got = harness_download(b);
  for (size_t i = 0; i < 800; i++)
    cr_assert_eq(got[i], HARNESS_POISON, "byte %zu of out was written", i);
  free(got);

  /* reduce */
  HARNESS_EXPECT(ctx, PRISM_NULL_POINTER, "in",
                 prism_segmented_reduce(ctx, PRISM_I32, O, NULL, 10, PRISM_U32,
                                        o, 2, b, 0, NULL));
  HARNESS_EXPECT(ctx, PRISM_NULL_POINTER, "out",
                 prism_segmented_reduce(ctx, PRISM_I32, O, a, 10, PRISM_U32, o,
                                        2, NULL, 0, NULL));
  HARNESS_EXPECT(ctx, PRISM_INVALID_ARGUMENT, "op",
                 prism_segmented_reduce(ctx, PRISM_I32, (prism_op)3, a, 10,
                                        PRISM_U32, o, 2, b, 0, NULL));
  HARNESS_EXPECT(ctx, PRISM_INVALID_ARGUMENT, "offset_type",
                 prism_segmented_reduce(ctx, PRISM_I32, O, a, 10, PRISM_F32, o,
                                        2, b, 0, NULL));
  HARNESS_EXPECT(ctx, PRISM_BUFFER_TOO_SMALL, "out",
                 prism_segmented_reduce(ctx, PRISM_I64, O, a, 10, PRISM_U32, o,
                                        2, small, 0, NULL));
  HARNESS_EXPECT(ctx, PRISM_BUFFER_TOO_SMALL, "in",
                 prism_segmented_reduce(ctx, PRISM_I32, O, small, 10, PRISM_U32,
                                        o, 2, b, 0, NULL));
  HARNESS_EXPECT(ctx, PRISM_BUFFER_TOO_SMALL, "offsets",
                 prism_segmented_reduce(ctx, PRISM_I32, O, a, 10, PRISM_I64, o,
                                        2, b, 0, NULL));
  HARNESS_EXPECT(ctx, PRISM_CONTEXT_MISMATCH, "out",
                 prism_segmented_reduce(ctx, PRISM_I32, O, a, 10, PRISM_U32, o,
                                        2, foreign, 0, NULL));
  HARNESS_EXPECT(ctx, PRISM_INVALID_ARGUMENT, "same buffer",
                 prism_segmented_reduce(ctx, PRISM_I32, O, a, 10, PRISM_U32, o,
                                        2, a, 0, NULL));
  HARNESS_OK(ctx, prism_segmented_reduce(ctx, PRISM_I32, O, a, 10, PRISM_U32, o,
                                         0, b, 1, &first_bad));
  cr_assert_eq(first_bad, SIZE_MAX);
  got = harness_download(b);
  for (size_t i = 0; i < 800; i++)
    cr_assert_eq(got[i], HARNESS_POISON, "byte %zu of out was written", i);
  free(got);

  /* The context still works after all that. */
  check_reduce(ctx, PRISM_I32, PRISM_SUM, PRISM_U32, L_SHORT, 1000, 0,
               VEC_SMALL);
  prism_buffer_destroy(o);
  prism_buffer_destroy(foreign);
  prism_buffer_destroy(small);
  prism_buffer_destroy(f);
  prism_buffer_destroy(b);
  prism_buffer_destroy(a);
  prism_context_destroy(other);
  prism_context_destroy(ctx);
}
