/* SPDX-License-Identifier: MIT */
/* Stream compaction (select_flagged, select_if, partition_flagged,
 * partition_if, unique) against the serial reference: every element and
 * flag type, every comparison (NaN, -0.0 and +0.0 included), runs for
 * unique, all / none / alternating / random flags, sizes around the tile
 * and chunk edges of both backends, the count to a device buffer, to the
 * host, to both or to neither, and bad input. */
#include "harness.h"
#include "ref_select.h"
#include "vectors.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int harness_needs_backend = 1;

static const prism_type flag_types[] = {PRISM_U8, PRISM_I32, PRISM_U32,
                                        PRISM_I64, PRISM_U64};
#define COUNT_OF(a) (sizeof(a) / sizeof((a)[0]))

/* Sizes around the edges of every shape in use: CUDA tiles of 4096
 * (bytes, 4-byte elements) and 2048 (8-byte) elements with one block up to
 * two tiles; OpenCL GPU-policy tiles of 7936, 3840 and 1792 with one
 * work-group up to four tiles; OpenCL CPU-policy chunks of at least 65536
 * (two chunks from 131072 on). */
static const size_t sizes[] = {
    1,     2,     3,     31,    32,    33,    255,    256,    257,
    1791,  1792,  1793,  2047,  2048,  2049,  3839,   3840,   3841,
    4095,  4096,  4097,  7168,  7169,  7936,  7937,   8192,   8193,
    15360, 15361, 17921, 31744, 31745, 65537, 131073, 262145, 1000003};

/* A shorter list for the less central combinations. */
static const size_t few_sizes[] = {1, 33, 2049, 4097, 7937, 15361, 131073};

/* Extra poisoned bytes after out and count_out: nothing may land there. */
#define GUARD_BYTES 64

typedef enum rule { FLAGGED, IF, UNIQUE } rule;

/* Where the count goes: bit 0 count_out, bit 1 count (host). */
enum { COUNT_NONE = 0, COUNT_DEVICE = 1, COUNT_HOST = 2, COUNT_BOTH = 3 };

typedef struct select_case {
  rule rule;
  int partition;
  prism_type type;
  const void *in;
  size_t n;
  prism_type flag_type; /* FLAGGED */
  const void *flags;    /* FLAGGED */
  prism_predicate pred; /* IF */
  int count_mode;
  const char *data; /* what the data is, for messages */
} select_case;

static const char *rule_name(const select_case *c) {
  switch (c->rule) {
  case FLAGGED:
    return c->partition ? "partition_flagged" : "select_flagged";
  case IF:
    return c->partition ? "partition_if" : "select_if";
  default:
    return "unique";
  }
}

static void describe(const select_case *c, char *buf, size_t size) {
  snprintf(buf, size, "%s %s n = %zu%s%s, compare %d, %s, count mode %d",
           rule_name(c), prism_type_name(c->type), c->n,
           c->rule == FLAGGED ? ", flags " : "",
           c->rule == FLAGGED ? prism_type_name(c->flag_type) : "",
           (int)c->pred.compare, c->data ? c->data : "", c->count_mode);
}

static prism_status call(prism_context *ctx, const select_case *c,
                         const prism_buffer *in, const prism_buffer *flags,
                         prism_buffer *out, prism_buffer *count_out,
                         size_t *count) {
  switch (c->rule) {
  case FLAGGED:
    return c->partition
               ? prism_partition_flagged(ctx, c->type, in, c->flag_type, flags,
                                         out, c->n, count_out, count)
               : prism_select_flagged(ctx, c->type, in, c->flag_type, flags,
                                      out, c->n, count_out, count);
  case IF:
    return c->partition ? prism_partition_if(ctx, c->type, in, &c->pred, out,
                                             c->n, count_out, count)
                        : prism_select_if(ctx, c->type, in, &c->pred, out, c->n,
                                          count_out, count);
  default:
    return prism_unique(ctx, c->type, in, out, c->n, count_out, count);
  }
}

/* The expected keep flags of a case. */
static unsigned char *reference_keep(const select_case *c) {
  unsigned char *keep = harness_malloc(c->n);
  if (c->rule == FLAGGED)
    ref_keep_flagged(c->flag_type, c->flags, c->n, keep);
  else if (c->rule == IF)
    ref_keep_if(c->type, c->in, c->n, &c->pred, keep);
  else
    ref_keep_unique(c->type, c->in, c->n, keep);
  return keep;
}

/* Runs the case on the device and compares everything with the serial
 * reference: out (byte for byte, poison where nothing may be written, the
 * guard after it), the count in count_out and on the host. Returns k. */
static size_t check_case(prism_context *ctx, const select_case *c) {
  char what[256];
  describe(c, what, sizeof what);
  const size_t es = prism_type_size(c->type);
  const size_t out_bytes = c->n * es + GUARD_BYTES;

  unsigned char *keep = reference_keep(c);
  unsigned char *want = harness_malloc(out_bytes);
  memset(want, HARNESS_POISON, out_bytes);
  const size_t k = ref_compact(c->type, c->in, keep, c->n, c->partition, want);

  prism_buffer *din = harness_upload(ctx, c->in, c->n * es);
  prism_buffer *dflags =
      c->rule == FLAGGED
          ? harness_upload(ctx, c->flags, c->n * prism_type_size(c->flag_type))
          : NULL;
  prism_buffer *dout = harness_poisoned(ctx, out_bytes);
  prism_buffer *dcount = harness_poisoned(ctx, 8 + GUARD_BYTES);
  size_t count = 12345;
  prism_status st = call(ctx, c, din, dflags, dout,
                         c->count_mode & COUNT_DEVICE ? dcount : NULL,
                         c->count_mode & COUNT_HOST ? &count : NULL);
  cr_assert_eq(st, PRISM_OK, "%s: %s (%s)", what, prism_status_name(st),
               prism_context_last_error(ctx));

  unsigned char *got = harness_download(dout);
  for (size_t i = 0; i < out_bytes; i += es) {
    if (memcmp(got + i, want + i, es) == 0)
      continue;
    uint64_t g = 0, w = 0;
    memcpy(&g, got + i, es);
    memcpy(&w, want + i, es);
    cr_assert(0, "%s: k = %zu, out[%zu] = %#llx, want %#llx%s", what, k, i / es,
              (unsigned long long)g, (unsigned long long)w,
              i >= c->n * es ? " (past n)" : "");
  }
  if (c->count_mode & COUNT_HOST)
    cr_assert_eq(count, k, "%s: count %zu, want %zu", what, count, k);
  unsigned char *counted = harness_download(dcount);
  uint64_t device_count = 0;
  memcpy(&device_count, counted, 8);
  if (c->count_mode & COUNT_DEVICE)
    cr_assert_eq(device_count, (uint64_t)k, "%s: count_out %llu, want %zu",
                 what, (unsigned long long)device_count, k);
  for (size_t i = c->count_mode & COUNT_DEVICE ? 8 : 0; i < 8 + GUARD_BYTES;
       i++)
    cr_assert_eq(counted[i], HARNESS_POISON, "%s: count_out byte %zu written",
                 what, i);

  free(counted);
  free(got);
  prism_buffer_destroy(dcount);
  prism_buffer_destroy(dout);
  prism_buffer_destroy(dflags);
  prism_buffer_destroy(din);
  free(want);
  free(keep);
  return k;
}

/* ---- Data ---------------------------------------------------------------- */

typedef enum flag_pattern {
  FLAGS_RANDOM, /* about half set; set values of every width and bit */
  FLAGS_ALL,
  FLAGS_NONE,
  FLAGS_ALTERNATING, /* odd positions */
  FLAGS_SPARSE,      /* about 1 in 50 */
  FLAGS_RUNS,        /* runs of set and clear, 1 to 600 long */
  FLAG_PATTERN_COUNT
} flag_pattern;

static const char *const flag_pattern_names[] = {
    "random flags", "all set", "none set", "alternating", "sparse", "runs"};

/* n flags of flag_type. A set flag is a random non-zero value, often with
 * its low byte (or low half) clear, so that every bit has to count. */
static void *make_flags(prism_type flag_type, flag_pattern pattern, size_t n,
                        uint64_t seed) {
  const size_t fs = prism_type_size(flag_type);
  unsigned char *flags = harness_malloc(n * fs);
  uint64_t rng = seed * 0x9E3779B97F4A7C15ull + pattern;
  int set = 0;
  size_t run_left = 0;
  for (size_t i = 0; i < n; i++) {
    const uint64_t r = vec_next(&rng);
    switch (pattern) {
    case FLAGS_RANDOM:
      set = r & 1;
      break;
    case FLAGS_ALL:
      set = 1;
      break;
    case FLAGS_NONE:
      set = 0;
      break;
    case FLAGS_ALTERNATING:
      set = i % 2;
      break;
    case FLAGS_SPARSE:
      set = r % 50 == 0;
      break;
    default:
      if (run_left == 0) {
        set = !set;
        run_left = 1 + (size_t)(r >> 8) % 600;
      }
      run_left--;
      break;
    }
    uint64_t v = 0;
    if (set) {
      const int shift = (int)((r >> 1) % (fs * 8));
      v = (r >> 16 | 1) << shift; /* non-zero in the flag's width */
      if (v << (64 - fs * 8) == 0)
        v = (uint64_t)1 << (fs * 8 - 1);
    }
    memcpy(flags + i * fs, &v, fs);
  }
  return flags;
}

/* n elements in runs of equal values (a new run starts with probability
 * 1 / mean_run), the values drawn from the pattern, so neighbouring runs
 * may also be equal. */
static void *make_runs(prism_type type, vec_pattern pattern, size_t n,
                       unsigned mean_run, uint64_t seed) {
  const size_t es = prism_type_size(type);
  unsigned char *pool = harness_malloc(n * es);
  unsigned char *in = harness_malloc(n * es);
  vec_fill(type, pattern, seed, pool, n);
  uint64_t rng = seed ^ 0x5bd1e995u;
  size_t run = 0;
  for (size_t i = 0; i < n; i++) {
    if (i > 0 && vec_next(&rng) % mean_run == 0)
      run++;
    memcpy(in + i * es, pool + run * es, es);
  }
  free(pool);
  return in;
}

/* ---- select_flagged / partition_flagged ---------------------------------- */

static void flagged_suite(prism_type type) {
  prism_context *ctx = harness_context();
  harness_require_type(ctx, type);
  const size_t es = prism_type_size(type);
  for (size_t f = 0; f < COUNT_OF(flag_types); f++) {
    const int full = flag_types[f] == PRISM_U8 || flag_types[f] == PRISM_U64;
    const size_t *list = full ? sizes : few_sizes;
    const size_t count = full ? COUNT_OF(sizes) : COUNT_OF(few_sizes);
    for (size_t s = 0; s < count; s++) {
      const size_t n = list[s];
      void *in = harness_malloc(n * es);
      vec_fill(type, VEC_RANDOM, n + f, in, n);
      for (int pattern = 0; pattern < FLAG_PATTERN_COUNT; pattern++) {
        /* Every pattern at a few sizes, random flags at all of them. */
        if (pattern != FLAGS_RANDOM && s % 3 != 0 && n != 1)
          continue;
        void *flags = make_flags(flag_types[f], (flag_pattern)pattern, n,
                                 n * 31 + (size_t)pattern);
        for (int partition = 0; partition < 2; partition++) {
          select_case c = {.rule = FLAGGED,
                           .partition = partition,
                           .type = type,
                           .in = in,
                           .n = n,
                           .flag_type = flag_types[f],
                           .flags = flags,
                           .count_mode = (int)((s + (size_t)partition) % 4),
                           .data = flag_pattern_names[pattern]};
          check_case(ctx, &c);
        }
        free(flags);
      }
      free(in);
    }
  }
  prism_context_destroy(ctx);
}

Test(select, flagged_u8) {
  flagged_suite(PRISM_U8);
}
Test(select, flagged_i32) {
  flagged_suite(PRISM_I32);
}
Test(select, flagged_u32) {
  flagged_suite(PRISM_U32);
}
Test(select, flagged_f32) {
  flagged_suite(PRISM_F32);
}
Test(select, flagged_i64) {
  flagged_suite(PRISM_I64);
}
Test(select, flagged_u64) {
  flagged_suite(PRISM_U64);
}
Test(select, flagged_f64) {
  flagged_suite(PRISM_F64);
}

/* ---- select_if / partition_if -------------------------------------------- */

static int is_float(prism_type type) {
  return type == PRISM_F32 || type == PRISM_F64;
}

/* Element i of in as a prism_value of its type. */
static prism_value value_at(prism_type type, const void *in, size_t i) {
  prism_value v;
  memset(&v, 0, sizeof v);
  memcpy(&v, (const unsigned char *)in + i * prism_type_size(type),
         prism_type_size(type));
  return v;
}

static prism_value float_value(prism_type type, double x) {
  prism_value v;
  memset(&v, 0, sizeof v);
  if (type == PRISM_F32)
    v.f32 = (float)x;
  else
    v.f64 = x;
  return v;
}

/* Every comparison against constants taken from the data (so equality
 * hits), over data of the pattern; the full size list for one data
 * pattern and comparison pair per call, a few sizes for the rest. */
static void if_suite(prism_type type) {
  prism_context *ctx = harness_context();
  harness_require_type(ctx, type);
  const size_t es = prism_type_size(type);
  static const vec_pattern patterns[] = {VEC_RANDOM, VEC_SMALL, VEC_EXTREME,
                                         VEC_SPECIAL};
  for (size_t p = 0; p < COUNT_OF(patterns); p++) {
    if (!vec_pattern_applies(patterns[p], type))
      continue;
    for (int compare = PRISM_LESS; compare <= PRISM_IN_RANGE; compare++) {
      const int full = (size_t)compare % COUNT_OF(patterns) == p;
      const size_t *list = full ? sizes : few_sizes;
      const size_t count = full ? COUNT_OF(sizes) : COUNT_OF(few_sizes);
      for (size_t s = 0; s < count; s++) {
        const size_t n = list[s];
        void *in = harness_malloc(n * es);
        vec_fill(type, patterns[p], n * 7 + (size_t)compare, in, n);
        select_case c = {.rule = IF,
                         .type = type,
                         .in = in,
                         .n = n,
                         .count_mode = (int)(s % 4),
                         .data = vec_pattern_name(patterns[p])};
        c.pred.compare = (prism_compare)compare;
        c.pred.a = value_at(type, in, n / 3);
        c.pred.b = value_at(type, in, 2 * n / 3);
        for (int partition = 0; partition < 2; partition++) {
          c.partition = partition;
          check_case(ctx, &c);
        }
        if (is_float(type) && s % 2 == 0) {
          /* A NaN constant fails every comparison but NOT_EQUAL; -0.0
           * equals +0.0. */
          c.pred.a = float_value(type, NAN);
          check_case(ctx, &c);
          c.pred.a = float_value(type, -0.0);
          c.pred.b = float_value(type, NAN);
          check_case(ctx, &c);
        }
        free(in);
      }
    }
  }
  prism_context_destroy(ctx);
}

Test(select, if_u8) {
  if_suite(PRISM_U8);
}
Test(select, if_i32) {
  if_suite(PRISM_I32);
}
Test(select, if_u32) {
  if_suite(PRISM_U32);
}
Test(select, if_f32) {
  if_suite(PRISM_F32);
}
Test(select, if_i64) {
  if_suite(PRISM_I64);
}
Test(select, if_u64) {
  if_suite(PRISM_U64);
}
Test(select, if_f64) {
  if_suite(PRISM_F64);
}

/* ---- unique -------------------------------------------------------------- */

static void unique_suite(prism_type type) {
  prism_context *ctx = harness_context();
  harness_require_type(ctx, type);
  static const vec_pattern patterns[] = {VEC_SMALL, VEC_RANDOM, VEC_EQUAL,
                                         VEC_SPECIAL, VEC_SIGNED_ZEROS};
  static const unsigned mean_runs[] = {1, 3, 40};
  for (size_t p = 0; p < COUNT_OF(patterns); p++) {
    if (!vec_pattern_applies(patterns[p], type))
      continue;
    for (size_t r = 0; r < COUNT_OF(mean_runs); r++) {
      const int full = r == p % COUNT_OF(mean_runs);
      const size_t *list = full ? sizes : few_sizes;
      const size_t count = full ? COUNT_OF(sizes) : COUNT_OF(few_sizes);
      for (size_t s = 0; s < count; s++) {
        const size_t n = list[s];
        void *in = make_runs(type, patterns[p], n, mean_runs[r], n + r);
        char data[64];
        snprintf(data, sizeof data, "%s in runs of ~%u",
                 vec_pattern_name(patterns[p]), mean_runs[r]);
        select_case c = {.rule = UNIQUE,
                         .type = type,
                         .in = in,
                         .n = n,
                         .count_mode = (int)((s + r) % 4),
                         .data = data};
        check_case(ctx, &c);
        free(in);
      }
    }
  }
  prism_context_destroy(ctx);
}

Test(select, unique_u8) {
  unique_suite(PRISM_U8);
}
Test(select, unique_i32) {
  unique_suite(PRISM_I32);
}
Test(select, unique_u32) {
  unique_suite(PRISM_U32);
}
Test(select, unique_f32) {
  unique_suite(PRISM_F32);
}
Test(select, unique_i64) {
  unique_suite(PRISM_I64);
}
Test(select, unique_u64) {
  unique_suite(PRISM_U64);
}
Test(select, unique_f64) {
  unique_suite(PRISM_F64);
}

/* ---- Hand-checked cases ---------------------------------------------------
 */

/* Partition keeps both parts in input order (CUB's reverses the rejected
 * part; prism's must not). */
Test(select, partition_order) {
  prism_context *ctx = harness_context();
  enum { N = 10 };
  int32_t in[N];
  uint8_t flags[N];
  for (int i = 0; i < N; i++) {
    in[i] = i;
    flags[i] = (uint8_t)(i % 2);
  }
  const int32_t want[N] = {1, 3, 5, 7, 9, 0, 2, 4, 6, 8};
  prism_buffer *din = harness_upload(ctx, in, sizeof in);
  prism_buffer *dflags = harness_upload(ctx, flags, sizeof flags);
  prism_buffer *dout = harness_poisoned(ctx, sizeof in);
  size_t k = 0;
  HARNESS_OK(ctx, prism_partition_flagged(ctx, PRISM_I32, din, PRISM_U8, dflags,
                                          dout, N, NULL, &k));
  cr_assert_eq(k, 5);
  int32_t got[N];
  HARNESS_OK(ctx, prism_buffer_read(dout, 0, got, sizeof got));
  for (int i = 0; i < N; i++)
    cr_assert_eq(got[i], want[i], "out[%d] = %d, want %d", i, got[i], want[i]);
  /* Through a predicate: x > 4 keeps 5..9, then 0..4 follow. */
  prism_predicate pred = {.compare = PRISM_GREATER};
  pred.a.i32 = 4;
  HARNESS_OK(ctx,
             prism_partition_if(ctx, PRISM_I32, din, &pred, dout, N, NULL, &k));
  cr_assert_eq(k, 5);
  HARNESS_OK(ctx, prism_buffer_read(dout, 0, got, sizeof got));
  for (int i = 0; i < N; i++)
    cr_assert_eq(got[i], (i + 5) % N, "out[%d] = %d", i, got[i]);
  prism_buffer_destroy(dout);
  prism_buffer_destroy(dflags);
  prism_buffer_destroy(din);
  prism_context_destroy(ctx);
}

static uint32_t f32_bits(float x) {
  uint32_t b;
  memcpy(&b, &x, sizeof b);
  return b;
}

/* IEEE-754 by hand: NaN fails every comparison but NOT_EQUAL, -0.0 equals
 * +0.0 (both kept, each with its own sign); unique keeps every NaN of a
 * run and drops a zero after a zero of the other sign. */
Test(select, float_semantics) {
  prism_context *ctx = harness_context();
  enum { N = 8 };
  const float in[N] = {NAN, NAN, -0.0f, 0.0f, 0.0f, 1.0f, 1.0f, NAN};
  prism_buffer *din = harness_upload(ctx, in, sizeof in);
  prism_buffer *dout = harness_poisoned(ctx, sizeof in);
  float got[N];
  size_t k = 0;

  prism_predicate pred = {.compare = PRISM_EQUAL};
  pred.a.f32 = 0.0f;
  HARNESS_OK(ctx,
             prism_select_if(ctx, PRISM_F32, din, &pred, dout, N, NULL, &k));
  cr_assert_eq(k, 3, "x == +0.0 kept %zu", k);
  HARNESS_OK(ctx, prism_buffer_read(dout, 0, got, 3 * sizeof(float)));
  cr_assert_eq(f32_bits(got[0]), f32_bits(-0.0f));
  cr_assert_eq(f32_bits(got[1]), f32_bits(0.0f));

  pred.a.f32 = NAN;
  for (int compare = PRISM_LESS; compare <= PRISM_IN_RANGE; compare++) {
    pred.compare = (prism_compare)compare;
    pred.b.f32 = INFINITY;
    HARNESS_OK(ctx,
               prism_select_if(ctx, PRISM_F32, din, &pred, dout, N, NULL, &k));
    cr_assert_eq(k, compare == PRISM_NOT_EQUAL ? (size_t)N : 0,
                 "compare %d against NaN kept %zu", compare, k);
  }

  pred.compare = PRISM_NOT_EQUAL;
  pred.a.f32 = 1.0f;
  HARNESS_OK(ctx,
             prism_select_if(ctx, PRISM_F32, din, &pred, dout, N, NULL, &k));
  cr_assert_eq(k, 6, "x != 1 kept %zu (NaNs included)", k);

  HARNESS_OK(ctx, prism_unique(ctx, PRISM_F32, din, dout, N, NULL, &k));
  cr_assert_eq(k, 5, "unique kept %zu", k);
  HARNESS_OK(ctx, prism_buffer_read(dout, 0, got, 5 * sizeof(float)));
  cr_assert(isnan(got[0]) && isnan(got[1]) && isnan(got[4]));
  cr_assert_eq(f32_bits(got[2]), f32_bits(-0.0f));
  cr_assert_eq(got[3], 1.0f);
  prism_buffer_destroy(dout);
  prism_buffer_destroy(din);
  prism_context_destroy(ctx);
}

/* The count to count_out alone, to the host alone, to both, to neither,
 * over the look-back and chunked sizes; n = 0 stores 0. */
Test(select, count_destinations) {
  prism_context *ctx = harness_context();
  static const size_t ns[] = {5, 40000, 300001};
  for (size_t s = 0; s < COUNT_OF(ns); s++) {
    const size_t n = ns[s];
    uint32_t *in = harness_malloc(n * sizeof *in);
    vec_fill(PRISM_U32, VEC_RANDOM, n, in, n);
    for (int mode = COUNT_NONE; mode <= COUNT_BOTH; mode++) {
      select_case c = {.rule = IF,
                       .type = PRISM_U32,
                       .in = in,
                       .n = n,
                       .count_mode = mode,
                       .data = "random"};
      c.pred.compare = PRISM_LESS;
      c.pred.a.u32 = UINT32_MAX / 2;
      check_case(ctx, &c);
      c.partition = 1;
      check_case(ctx, &c);
    }
    free(in);
  }

  prism_buffer *a = harness_poisoned(ctx, 16), *b = harness_poisoned(ctx, 16);
  prism_buffer *count_out = harness_poisoned(ctx, 8);
  size_t k = 77;
  uint64_t device_count = 77;
  HARNESS_OK(ctx, prism_unique(ctx, PRISM_U32, a, b, 0, count_out, &k));
  HARNESS_OK(ctx, prism_buffer_read(count_out, 0, &device_count, 8));
  cr_assert_eq(k, 0);
  cr_assert_eq(device_count, 0);
  prism_buffer_destroy(count_out);
  prism_buffer_destroy(b);
  prism_buffer_destroy(a);
  prism_context_destroy(ctx);
}

/* ---- Bad input ------------------------------------------------------------
 */

Test(select, bad_input) {
  prism_context *ctx = harness_context(), *other = harness_context();
  prism_buffer *in = harness_poisoned(ctx, 400),
               *out = harness_poisoned(ctx, 400);
  prism_buffer *flags = harness_poisoned(ctx, 400);
  prism_buffer *count_out = harness_poisoned(ctx, 8);
  prism_buffer *small = harness_poisoned(ctx, 4);
  prism_buffer *foreign = harness_poisoned(other, 400);
  prism_predicate pred = {.compare = PRISM_LESS};
  size_t k = 0;

  HARNESS_EXPECT(NULL, PRISM_NULL_POINTER, "ctx",
                 prism_unique(NULL, PRISM_U32, in, out, 10, NULL, NULL));
  HARNESS_EXPECT(
      ctx, PRISM_NULL_POINTER, "in",
      prism_select_if(ctx, PRISM_U32, NULL, &pred, out, 10, NULL, NULL));
  HARNESS_EXPECT(ctx, PRISM_NULL_POINTER, "out",
                 prism_unique(ctx, PRISM_U32, in, NULL, 10, NULL, NULL));
  HARNESS_EXPECT(ctx, PRISM_NULL_POINTER, "flags",
                 prism_select_flagged(ctx, PRISM_U32, in, PRISM_U8, NULL, out,
                                      10, NULL, NULL));
  HARNESS_EXPECT(
      ctx, PRISM_NULL_POINTER, "predicate",
      prism_partition_if(ctx, PRISM_U32, in, NULL, out, 10, NULL, NULL));
  HARNESS_EXPECT(
      ctx, PRISM_INVALID_ARGUMENT, "same buffer",
      prism_select_if(ctx, PRISM_U32, in, &pred, in, 10, NULL, NULL));
  HARNESS_EXPECT(ctx, PRISM_INVALID_ARGUMENT, "flags and out",
                 prism_partition_flagged(ctx, PRISM_U32, in, PRISM_U32, out,
                                         out, 10, NULL, NULL));
  HARNESS_EXPECT(ctx, PRISM_INVALID_ARGUMENT, "count_out",
                 prism_unique(ctx, PRISM_U32, in, out, 10, out, NULL));
  HARNESS_EXPECT(ctx, PRISM_INVALID_ARGUMENT, "flag_type",
                 prism_select_flagged(ctx, PRISM_U32, in, PRISM_F32, flags, out,
                                      10, NULL, NULL));
  HARNESS_EXPECT(ctx, PRISM_INVALID_ARGUMENT, "flag_type",
                 prism_partition_flagged(ctx, PRISM_U32, in, (prism_type)99,
                                         flags, out, 10, NULL, NULL));
  pred.compare = (prism_compare)7;
  HARNESS_EXPECT(
      ctx, PRISM_INVALID_ARGUMENT, "predicate->compare",
      prism_select_if(ctx, PRISM_U32, in, &pred, out, 10, NULL, NULL));
  pred.compare = (prism_compare)-1;
  HARNESS_EXPECT(
      ctx, PRISM_INVALID_ARGUMENT, "predicate->compare",
      prism_partition_if(ctx, PRISM_U32, in, &pred, out, 10, NULL, NULL));
  pred.compare = PRISM_LESS;
  HARNESS_EXPECT(ctx, PRISM_INVALID_ARGUMENT, "type",
                 prism_unique(ctx, (prism_type)99, in, out, 10, NULL, NULL));
  if (!prism_context_supports(ctx, PRISM_F64))
    HARNESS_EXPECT(ctx, PRISM_UNSUPPORTED, "f64",
                   prism_unique(ctx, PRISM_F64, in, out, 10, NULL, NULL));
  HARNESS_EXPECT(
      ctx, PRISM_BUFFER_TOO_SMALL, "in",
      prism_select_if(ctx, PRISM_U64, in, &pred, out, 51, NULL, NULL));
  HARNESS_EXPECT(ctx, PRISM_BUFFER_TOO_SMALL, "out",
                 prism_unique(ctx, PRISM_U32, in, small, 10, NULL, NULL));
  HARNESS_EXPECT(ctx, PRISM_BUFFER_TOO_SMALL, "flags",
                 prism_select_flagged(ctx, PRISM_U8, in, PRISM_U64, flags, out,
                                      51, NULL, NULL));
  HARNESS_EXPECT(ctx, PRISM_BUFFER_TOO_SMALL, "count_out",
                 prism_unique(ctx, PRISM_U32, in, out, 10, small, NULL));
  HARNESS_EXPECT(ctx, PRISM_CONTEXT_MISMATCH, "in",
                 prism_unique(ctx, PRISM_U32, foreign, out, 10, NULL, NULL));
  HARNESS_EXPECT(ctx, PRISM_CONTEXT_MISMATCH, "flags",
                 prism_select_flagged(ctx, PRISM_U32, in, PRISM_U32, foreign,
                                      out, 10, NULL, NULL));
  HARNESS_EXPECT(
      ctx, PRISM_CONTEXT_MISMATCH, "count_out",
      prism_select_if(ctx, PRISM_U32, in, &pred, out, 10, foreign, NULL));
  HARNESS_EXPECT(
      ctx, PRISM_INVALID_ARGUMENT, "overflow",
      prism_unique(ctx, PRISM_U64, in, out, SIZE_MAX / 4, NULL, NULL));
  /* Nothing was written, and the context still works. */
  unsigned char *untouched = harness_download(out);
  for (size_t i = 0; i < 400; i++)
    cr_assert_eq(untouched[i], HARNESS_POISON, "out byte %zu written", i);
  free(untouched);
  uint32_t values[4] = {3, 3, 5, 3};
  HARNESS_OK(ctx, prism_buffer_write(in, 0, values, sizeof values));
  HARNESS_OK(ctx, prism_unique(ctx, PRISM_U32, in, out, 4, count_out, &k));
  cr_assert_eq(k, 3);
  HARNESS_OK(ctx, prism_buffer_read(out, 0, values, 3 * sizeof(uint32_t)));
  cr_assert(values[0] == 3 && values[1] == 5 && values[2] == 3);

  prism_buffer_destroy(foreign);
  prism_buffer_destroy(small);
  prism_buffer_destroy(count_out);
  prism_buffer_destroy(flags);
  prism_buffer_destroy(out);
  prism_buffer_destroy(in);
  prism_context_destroy(other);
  prism_context_destroy(ctx);
}
