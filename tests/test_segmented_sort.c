/* SPDX-License-Identifier: MIT */
/*
 * prism_segmented_sort_keys and prism_segmented_sort_pairs against the
 * reference order (ref_segmented_sort_order_new): every key type, both
 * orders, bit ranges, values of 4 and 8 bytes (each key's input index,
 * which proves stability and that values move with their keys), every
 * offset type; segment layouts from one segment over everything (past
 * every per-block class) to a million tiny ones, power-law and tile-edge
 * lengths, empty segments anywhere, segments that leave the ends of the
 * array uncovered (keys_out there keeps its sentinel); in place; inputs
 * and outputs as views of one buffer; bad segments (nothing written,
 * first_bad, the context usable after), the no-ops and bad arguments.
 */
#include "harness.h"
#include "ref_segmented.h"
#include "ref_sort.h"
#include "ref_value.h"
#include "vectors.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int harness_needs_backend = 1;

/* Poisoned bytes after every argument (and between views). */
#define GUARD_BYTES 64

static const prism_type key_types[] = {PRISM_U32, PRISM_I32, PRISM_F32,
                                       PRISM_U64, PRISM_I64, PRISM_F64};
static const prism_type offset_types[] = {PRISM_U32, PRISM_I32, PRISM_U64,
                                          PRISM_I64};

typedef struct seg_case {
  prism_type type;
  size_t value_size; /* 0: keys only */
  int descending;
  unsigned begin_bit, end_bit; /* end_bit 0: every bit */
  prism_type offset_type;
  int in_place;
  int views; /* every argument a view of one buffer */
} seg_case;

static unsigned key_bits(prism_type type) {
  return (unsigned)prism_type_size(type) * 8;
}

static size_t round8(size_t bytes) {
  return (bytes + 7) / 8 * 8;
}

static uint64_t get_bits(const unsigned char *p, size_t size, size_t i) {
  uint64_t v = 0;
  memcpy(&v, p + i * size, size); /* little-endian: low bytes */
  return v;
}

static void put_bits(unsigned char *p, size_t size, size_t i, uint64_t v) {
  memcpy(p + i * size, &v, size);
}

/* ---- Keys ---------------------------------------------------------------- */

/* A shared vec_pattern, or KEYS_FEW: five distinct keys, long ties. */
#define KEYS_FEW VEC_PATTERN_COUNT

static const char *pattern_name(int p) {
  return p == KEYS_FEW ? "few" : vec_pattern_name((vec_pattern)p);
}

/* The patterns that apply to the type, in turn by salt. */
static int pick_pattern(prism_type type, size_t salt) {
  for (;;) {
    int p = (int)(salt++ % (VEC_PATTERN_COUNT + 1));
    if (p == KEYS_FEW || vec_pattern_applies((vec_pattern)p, type))
      return p;
  }
}

static unsigned char *make_keys(prism_type type, int p, uint64_t seed,
                                size_t n) {
  const size_t ks = prism_type_size(type);
  unsigned char *keys = harness_malloc(n * ks);
  vec_fill(type, p == KEYS_FEW ? VEC_RANDOM : (vec_pattern)p, seed, keys, n);
  if (p == KEYS_FEW)
    for (size_t i = 0; i < n; i++)
      put_bits(keys, ks, i, (get_bits(keys, ks, i) % 5) * 0x01010101u);
  return keys;
}

/* ---- Segments ------------------------------------------------------------ */

typedef enum layout {
  L_ONE,     /* one segment over the range */
  L_TINY,    /* lengths 1 to 3 */
  L_SHORT,   /* lengths 0 to 8, empty ones among them */
  L_POWER,   /* power law: half of length 1, a few of a third of the range */
  L_FIXED,   /* every segment param keys, the last one shorter */
  L_EMPTIES, /* empty segments first, a thousand in a row, and last */
  L_MIXED,   /* mostly 0 to 3, now and then up to a third of the range */
  L_COUNT
} layout;

static const char *layout_name(layout l) {
  static const char *const names[L_COUNT] = {
      "one", "tiny", "short", "power-law", "fixed", "empties", "mixed"};
  return names[l];
}

/* Segment bounds, host side. */
typedef struct bounds {
  int64_t *v; /* count + 1 values */
  size_t count;
  size_t cap;
} bounds;

static void push(bounds *b, int64_t v) {
  if (b->count + 1 >= b->cap) {
    b->cap = b->cap ? 2 * b->cap : 1024;
    int64_t *grown = realloc(b->v, b->cap * sizeof *b->v);
    cr_assert_not_null(grown, "out of host memory");
    b->v = grown;
  }
  b->v[b->count++] = v;
}

/* A bounds array from explicit values. */
static bounds bounds_of(const int64_t *v, size_t values) {
  bounds b = {NULL, 0, 0};
  for (size_t i = 0; i < values; i++)
    push(&b, v[i]);
  b.count = values - 1; /* push counted values */
  return b;
}

/* The segments of the layout over [first, last). */
static bounds make_bounds(layout l, size_t first, size_t last, size_t param,
                          uint64_t seed) {
  bounds b = {NULL, 0, 0};
  const size_t span = last - first;
  uint64_t rng = seed * 0x9E3779B97F4A7C15ull + (uint64_t)l;
  size_t at = first, k = 0;
  push(&b, (int64_t)at);
  if (l == L_EMPTIES)
    for (int e = 0; e < 5; e++)
      push(&b, (int64_t)at);
  while (at < last) {
    uint64_t r = vec_next(&rng);
    size_t len;
    switch (l) {
    case L_ONE:
      len = span;
      break;
    case L_TINY:
      len = 1 + r % 3;
      break;
    case L_SHORT:
      len = r % 9;
      break;
    case L_POWER: {
      /* P(len in [2^k, 2^(k+1))) = 2^-(k+1): many tiny, fewer and fewer
       * long ones; segments 1 and 7 hold a third and a fifth of it all. */
      unsigned z = 0;
      while (z < 22 && !((r >> z) & 1))
        z++;
      len = ((size_t)1 << z) + (size_t)((r >> 32) % ((uint64_t)1 << z));
      if (k == 1)
        len = span / 3;
      else if (k == 7)
        len = span / 5;
      break;
    }
    case L_FIXED:
      len = param;
      break;
    case L_EMPTIES:
      len = k == 20 ? 0 : r % 10 == 0 ? 0 : r % 50;
      if (k == 20)
        for (int e = 0; e < 1000; e++)
          push(&b, (int64_t)at);
      break;
    default:
      len = r % 61 == 0 ? 1 + (size_t)(r >> 8) % (span / 3 + 1) : r % 4;
      break;
    }
    at = len > last - at ? last : at + len;
    push(&b, (int64_t)at);
    k++;
  }
  if (l == L_EMPTIES)
    for (int e = 0; e < 7; e++)
      push(&b, (int64_t)at);
  if (b.count == 1) /* an empty range: one empty segment */
    push(&b, (int64_t)at);
  b.count--; /* values - 1 segments */
  return b;
}

static void set_offset(prism_type t, unsigned char *o, size_t i, int64_t v) {
  switch (t) {
  case PRISM_U32:
  case PRISM_I32:
    put_bits(o, 4, i, (uint64_t)(uint32_t)(int32_t)v);
    break;
  default:
    put_bits(o, 8, i, (uint64_t)v);
    break;
  }
}

/* The bounds as offset_type (negatives wrap for unsigned types). */
static unsigned char *typed_offsets(prism_type ot, const bounds *b) {
  unsigned char *o = harness_malloc((b->count + 1) * prism_type_size(ot));
  for (size_t s = 0; s <= b->count; s++)
    set_offset(ot, o, s, b->v[s]);
  return o;
}

/* ---- One call and its check ---------------------------------------------- */

enum { R_KIN, R_KOUT, R_VIN, R_VOUT, R_OFF, R_COUNT };

static const char *const region_names[R_COUNT] = {
    "keys_in", "keys_out", "values_in", "values_out", "offsets"};

static void describe(char *what, size_t size, const seg_case *c, size_t n,
                     const bounds *b, const char *how) {
  snprintf(what, size,
           "segmented sort %s %s%s, bits [%u, %u), %s offsets, %zu segments "
           "in [%lld, %lld), n = %zu, %s%s%s",
           prism_type_name(c->type), c->descending ? "descending" : "ascending",
           c->value_size == 4   ? ", 4-byte values"
           : c->value_size == 8 ? ", 8-byte values"
                                : "",
           c->begin_bit, c->end_bit ? c->end_bit : key_bits(c->type),
           prism_type_name(c->offset_type), b->count, (long long)b->v[0],
           (long long)b->v[b->count], n, how, c->in_place ? ", in place" : "",
           c->views ? ", views" : "");
}

/* The segment position i lies in, for messages. */
static void where(const bounds *b, size_t i, char *buf, size_t size) {
  for (size_t s = 0; s < b->count; s++)
    if (b->v[s] <= (int64_t)i && (int64_t)i < b->v[s + 1]) {
      snprintf(buf, size, "in segment %zu [%lld, %lld)", s, (long long)b->v[s],
               (long long)b->v[s + 1]);
      return;
    }
  snprintf(buf, size, "outside every segment");
}

static void expect_keys(const seg_case *c, const bounds *b, size_t n,
                        const unsigned char *got, const unsigned char *want,
                        const char *what) {
  const size_t ks = prism_type_size(c->type);
  if (memcmp(got, want, n * ks) == 0)
    return;
  size_t i = 0;
  while (memcmp(got + i * ks, want + i * ks, ks) == 0)
    i++;
  char g[64], w[64], seg[96];
  ref_format(c->type, got + i * ks, g, sizeof g);
  ref_format(c->type, want + i * ks, w, sizeof w);
  where(b, i, seg, sizeof seg);
  cr_assert_fail("%s: key %zu (%s) is %s (bits %#llx), want %s (bits %#llx)",
                 what, i, seg, g, (unsigned long long)get_bits(got, ks, i), w,
                 (unsigned long long)get_bits(want, ks, i));
}

static void expect_values(const seg_case *c, const bounds *b, size_t n,
                          const unsigned char *got, const unsigned char *want,
                          const char *what) {
  const size_t vs = c->value_size;
  if (memcmp(got, want, n * vs) == 0)
    return;
  size_t i = 0;
  while (memcmp(got + i * vs, want + i * vs, vs) == 0)
    i++;
  char seg[96];
  where(b, i, seg, sizeof seg);
  cr_assert_fail("%s: value %zu (%s) is %llu, want %llu (unstable, or a value "
                 "apart from its key?)",
                 what, i, seg, (unsigned long long)get_bits(got, vs, i),
                 (unsigned long long)get_bits(want, vs, i));
}

static void expect_poison(const unsigned char *bytes, size_t from, size_t to,
                          const char *what, const char *after) {
  for (size_t i = from; i < to; i++)
    cr_assert_eq(bytes[i], HARNESS_POISON, "%s: byte %zu %s was written", what,
                 i - from, after);
}

static prism_status call_sort(prism_context *ctx, const seg_case *c,
                              prism_buffer *const *buf, size_t n, size_t count,
                              size_t *first_bad) {
  prism_sort_options o, *options = &o;
  prism_sort_options_init(&o, c->type);
  o.order = c->descending ? PRISM_DESCENDING : PRISM_ASCENDING;
  o.begin_bit = c->begin_bit;
  if (c->end_bit)
    o.end_bit = c->end_bit;
  /* The defaults, now and then as NULL options. */
  if (!c->descending && o.begin_bit == 0 && o.end_bit == key_bits(c->type) &&
      n % 2)
    options = NULL;
  prism_buffer *kout = c->in_place ? buf[R_KIN] : buf[R_KOUT];
  if (c->value_size) {
    prism_buffer *vout = c->in_place ? buf[R_VIN] : buf[R_VOUT];
    return prism_segmented_sort_pairs(
        ctx, c->type, buf[R_KIN], kout, buf[R_VIN], vout, c->value_size, n,
        c->offset_type, buf[R_OFF], count, options, first_bad);
  }
  return prism_segmented_sort_keys(ctx, c->type, buf[R_KIN], kout, n,
                                   c->offset_type, buf[R_OFF], count, options,
                                   first_bad);
}

/* Sort keys (n of them, with their indices as values for pairs) by the
 * segments b on the device and check every output byte: sorted segments,
 * the outputs' prior contents outside them (everywhere when a segment is
 * bad: then the call must fail naming the first bad one), the inputs and
 * offsets unchanged, the guards poisoned. */
static void check_case(prism_context *ctx, const seg_case *c,
                       const unsigned char *keys, size_t n, const bounds *b,
                       const char *how) {
  const size_t ks = prism_type_size(c->type), vs = c->value_size;
  const size_t os = prism_type_size(c->offset_type);
  unsigned char *offsets = typed_offsets(c->offset_type, b);
  const size_t bad = ref_first_bad(c->offset_type, offsets, b->count, n);
  unsigned char *values = NULL, *poison = harness_malloc(n * (ks > 8 ? ks : 8));
  memset(poison, HARNESS_POISON, n * (ks > 8 ? ks : 8));
  if (vs) {
    values = harness_malloc(n * vs);
    for (size_t i = 0; i < n; i++)
      put_bits(values, vs, i, i);
  }
  char what[320];
  describe(what, sizeof what, c, n, b, how);

  /* What each region holds before, and must hold after. */
  const unsigned char *init[R_COUNT] = {keys, NULL, values, NULL, offsets};
  size_t len[R_COUNT] = {n * ks, n * ks, n * vs, n * vs, (b->count + 1) * os};
  int used[R_COUNT] = {1, !c->in_place, vs != 0, vs && !c->in_place, 1};
  unsigned char *want_k = harness_malloc(n * ks);
  unsigned char *want_v = vs ? harness_malloc(n * vs) : NULL;
  memcpy(want_k, c->in_place ? keys : poison, n * ks);
  if (vs)
    memcpy(want_v, c->in_place ? values : poison, n * vs);
  if (bad == SIZE_MAX) {
    uint64_t *o64 = harness_malloc((b->count + 1) * sizeof *o64);
    for (size_t s = 0; s <= b->count; s++)
      o64[s] = (uint64_t)b->v[s];
    size_t *perm = ref_segmented_sort_order_new(
        c->type, keys, n, o64, b->count, c->descending, c->begin_bit,
        c->end_bit ? c->end_bit : key_bits(c->type));
    cr_assert_not_null(perm, "out of host memory");
    for (size_t i = (size_t)o64[0]; i < (size_t)o64[b->count]; i++) {
      memcpy(want_k + i * ks, keys + perm[i] * ks, ks);
      if (vs)
        put_bits(want_v, vs, i, perm[i]);
    }
    free(perm);
    free(o64);
  }
  const unsigned char *want[R_COUNT] = {c->in_place ? want_k : keys, want_k,
                                        c->in_place ? want_v : values, want_v,
                                        offsets};

  prism_buffer *buf[R_COUNT] = {NULL}, *parent = NULL;
  size_t at[R_COUNT] = {0}, total = GUARD_BYTES;
  if (c->views) {
    for (int r = 0; r < R_COUNT; r++)
      if (used[r]) {
        at[r] = total;
        total = round8(total + len[r]) + GUARD_BYTES;
      }
    parent = harness_poisoned(ctx, total);
  }
  for (int r = 0; r < R_COUNT; r++) {
    if (!used[r])
      continue;
    if (c->views)
      HARNESS_OK(ctx, prism_buffer_view(parent, at[r], len[r], &buf[r]));
    else
      buf[r] = harness_poisoned(ctx, len[r] + GUARD_BYTES);
    if (init[r])
      HARNESS_OK(ctx, prism_buffer_write(buf[r], 0, init[r], len[r]));
  }

  size_t first_bad = 12345;
  prism_status st = call_sort(ctx, c, buf, n, b->count, &first_bad);
  if (bad == SIZE_MAX) {
    cr_assert_eq(st, PRISM_OK, "%s -> %s: %s", what, prism_status_name(st),
                 prism_context_last_error(ctx));
    cr_assert_eq(first_bad, SIZE_MAX, "%s: first_bad is %zu on success", what,
                 first_bad);
  } else {
    char needle[64];
    snprintf(needle, sizeof needle, "segment %zu ", bad);
    cr_assert_eq(st, PRISM_INVALID_ARGUMENT,
                 "%s: segment %zu is bad, got %s (%s)", what, bad,
                 prism_status_name(st), prism_context_last_error(ctx));
    cr_assert_eq(first_bad, bad, "%s: first_bad %zu, want %zu", what, first_bad,
                 bad);
    cr_assert(strstr(prism_context_last_error(ctx), needle),
              "%s: message '%s' does not name %s", what,
              prism_context_last_error(ctx), needle);
  }

  unsigned char *whole = c->views ? harness_download(parent) : NULL;
  size_t end = 0;
  for (int r = 0; r < R_COUNT; r++) {
    if (!used[r])
      continue;
    unsigned char *got = c->views ? whole + at[r] : harness_download(buf[r]);
    if (c->views)
      expect_poison(whole, end, at[r], what, "before a view");
    if (r == R_KIN || r == R_KOUT)
      expect_keys(c, b, n, got, want[r], what);
    else if (r == R_VIN || r == R_VOUT)
      expect_values(c, b, n, got, want[r], what);
    else
      cr_assert(memcmp(got, offsets, len[r]) == 0, "%s: offsets modified",
                what);
    char after[64];
    snprintf(after, sizeof after, "past the end of %s", region_names[r]);
    if (c->views)
      end = at[r] + len[r];
    else
      expect_poison(got, len[r], len[r] + GUARD_BYTES, what, after);
    if (!c->views)
      free(got);
  }
  if (c->views)
    expect_poison(whole, end, total, what, "past the last view");
  free(whole);

  for (int r = 0; r < R_COUNT; r++)
    prism_buffer_destroy(buf[r]);
  prism_buffer_destroy(parent);
  free(want_v);
  free(want_k);
  free(values);
  free(poison);
  free(offsets);
}

/* The layout's segments over [first, last) of n keys of pattern p. */
static void check_layout(prism_context *ctx, const seg_case *c, layout l,
                         size_t n, size_t first, size_t last, size_t param,
                         int p) {
  if (n > harness_max_n())
    return;
  uint64_t seed = n * 131 + first * 7 + (uint64_t)l * 31 + (uint64_t)p;
  unsigned char *keys = make_keys(c->type, p, seed, n);
  bounds b = make_bounds(l, first, last, param, seed);
  char how[64];
  if (l == L_FIXED)
    snprintf(how, sizeof how, "%s %zu, %s", layout_name(l), param,
             pattern_name(p));
  else
    snprintf(how, sizeof how, "%s, %s", layout_name(l), pattern_name(p));
  check_case(ctx, c, keys, n, &b, how);
  free(b.v);
  free(keys);
}

/* ---- Every type, order, bit range, value size -----------------------------
 */

static void type_suite(prism_type type, size_t value_size) {
  prism_context *ctx = harness_context();
  harness_require_type(ctx, type);
  static const size_t sizes[] = {1, 2, 33, 1000, 4097, 20011, 65537};
  const unsigned bits = key_bits(type);
  size_t salt = 0;
  for (int desc = 0; desc < 2; desc++) {
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
      for (size_t k = 0; k < 2; k++) {
        const size_t n = sizes[s];
        seg_case c = {type,
                      value_size,
                      desc,
                      0,
                      0,
                      offset_types[(s + k) % 4],
                      (s + k) % 3 == 0,
                      (s + k + (size_t)desc) % 4 == 1};
        layout l = (layout)((s + 3 * k + (size_t)desc) % L_COUNT);
        size_t first = k ? n / 7 : 0, last = k ? n - n / 9 : n;
        check_layout(ctx, &c, l, n, first, last, 1 + n / 40,
                     pick_pattern(type, salt++));
      }
    /* Bit ranges: low, middle, top, one bit. */
    const unsigned ranges[][2] = {
        {0, 8}, {5, bits / 2 + 3}, {bits - 4, bits}, {bits - 1, bits}};
    for (size_t r = 0; r < 4; r++) {
      seg_case c = {type,         value_size,      desc, ranges[r][0],
                    ranges[r][1], offset_types[r], 0,    0};
      check_layout(ctx, &c, r % 2 ? L_MIXED : L_SHORT, 20011, 0, 20011, 0,
                   r % 2 ? KEYS_FEW : VEC_RANDOM);
      check_layout(ctx, &c, L_POWER, 30011, 3, 30011, 0, VEC_RANDOM);
    }
  }
  prism_context_destroy(ctx);
}

#define TYPE_TESTS(T)                                                          \
  Test(segmented_sort, T##_keys) {                                             \
    type_suite(PRISM_##T, 0);                                                  \
  }                                                                            \
  Test(segmented_sort, T##_pairs4) {                                           \
    type_suite(PRISM_##T, 4);                                                  \
  }                                                                            \
  Test(segmented_sort, T##_pairs8) {                                           \
    type_suite(PRISM_##T, 8);                                                  \
  }

TYPE_TESTS(U32)
TYPE_TESTS(I32)
TYPE_TESTS(F32)
TYPE_TESTS(U64)
TYPE_TESTS(I64)
TYPE_TESTS(F64)

/* Floats in total order: NaNs of both signs, infinities, signed zeros and
 * denormals, in segments of every class, both orders. */
Test(segmented_sort, float_total_order) {
  prism_context *ctx = harness_context();
  for (size_t t = 2; t < 6; t += 3) {
    if (!prism_context_supports(ctx, key_types[t]))
      continue;
    for (int desc = 0; desc < 2; desc++)
      for (int l = 0; l < L_COUNT; l++) {
        seg_case c = {key_types[t],
                      (size_t)(l % 3) * 4,
                      desc,
                      0,
                      0,
                      offset_types[l % 4],
                      0,
                      0};
        check_layout(ctx, &c, (layout)l, 12289, 0, 12289, 300,
                     l % 2 ? VEC_SIGNED_ZEROS : VEC_SPECIAL);
      }
  }
  prism_context_destroy(ctx);
}

/* ---- Offset types, empty segments, gaps ---------------------------------- */

Test(segmented_sort, every_offset_type) {
  prism_context *ctx = harness_context();
  for (size_t o = 0; o < 4; o++)
    for (int l = 0; l < L_COUNT; l++) {
      seg_case keys = {PRISM_U32, 0, 0, 0, 0, offset_types[o], 0, 0};
      seg_case pairs = {PRISM_I64, 8, 1, 0, 0, offset_types[o], 0, 0};
      check_layout(ctx, &keys, (layout)l, 20011, 0, 20011, 257, VEC_RANDOM);
      check_layout(ctx, &pairs, (layout)l, 20011, 11, 19000, 1025, KEYS_FEW);
    }
  prism_context_destroy(ctx);
}

Test(segmented_sort, empty_segments) {
  prism_context *ctx = harness_context();
  const int64_t n = 5000;
  const int64_t leading[] = {0, 0, 0, 0, 5, 10, 3000, n};
  const int64_t trailing[] = {0, n / 2, n, n, n, n};
  const int64_t inside[] = {0, 100, 100, 100, 100, 2000, 2000, n};
  const int64_t all_empty[] = {3, 3, 3, 3, 3};
  const int64_t one_empty[] = {n, n};
  const int64_t zero_empty[] = {0, 0};
  const struct {
    const int64_t *v;
    size_t values;
    const char *name;
  } lists[] = {{leading, 8, "leading empties"},
               {trailing, 6, "trailing empties"},
               {inside, 8, "empties inside"},
               {all_empty, 5, "every segment empty at 3"},
               {one_empty, 2, "one empty segment at n"},
               {zero_empty, 2, "one empty segment at 0"}};
  for (size_t i = 0; i < sizeof lists / sizeof lists[0]; i++)
    for (int v = 0; v < 3; v++) {
      seg_case c = {
          v == 2 ? PRISM_U64 : PRISM_U32,    (size_t)v * 4, (int)i % 2, 0, 0,
          offset_types[(i + (size_t)v) % 4], v == 1,        0};
      unsigned char *keys = make_keys(c.type, VEC_RANDOM, i + 1, (size_t)n);
      bounds b = bounds_of(lists[i].v, lists[i].values);
      check_case(ctx, &c, keys, (size_t)n, &b, lists[i].name);
      free(b.v);
      free(keys);
    }
  /* Runs of empties among segments of every length. */
  for (int v = 0; v < 3; v++) {
    seg_case c = {PRISM_I32, (size_t)v * 4,   v == 1, 0,
                  0,         offset_types[v], v == 2, 0};
    check_layout(ctx, &c, L_EMPTIES, 5000, 0, 5000, 0, VEC_RANDOM);
    check_layout(ctx, &c, L_EMPTIES, 100003, 17, 100003, 0, KEYS_FEW);
  }
  prism_context_destroy(ctx);
}

/* Segments that leave the ends uncovered: keys_out (and values_out) keep
 * their sentinel there, or the input when in place. */
Test(segmented_sort, gaps_keep_prior_contents) {
  prism_context *ctx = harness_context();
  static const size_t ns[] = {100, 4097, 65537};
  for (size_t s = 0; s < 3; s++) {
    const size_t n = ns[s];
    const size_t ends[][2] = {{1, n},
                              {0, n - 1},
                              {n / 3, n - n / 4},
                              {n / 2, n / 2 + 1},
                              {n - 5, n - 5}};
    for (size_t e = 0; e < 5; e++)
      for (int v = 0; v < 3; v++) {
        seg_case c = {key_types[(s + e) % 6],
                      (size_t)v * 4,
                      (int)e % 2,
                      0,
                      0,
                      offset_types[(e + (size_t)v) % 4],
                      (int)(e + s) % 2,
                      v == 2 && e % 2 == 0};
        if (!prism_context_supports(ctx, c.type))
          continue;
        check_layout(ctx, &c, (layout)((e + (size_t)v) % L_COUNT), n,
                     ends[e][0], ends[e][1], 63, VEC_RANDOM);
      }
  }
  prism_context_destroy(ctx);
}

/* ---- Segment classes: big, tiny, power law, tile edges ------------------- */

/* One segment over everything: past every per-block class (2^21: the
 * device-wide sort, past the 2^20 split), and one of 300000. */
Test(segmented_sort, one_big_segment) {
  prism_context *ctx = harness_context();
  const seg_case cases[] = {
      {PRISM_U32, 0, 0, 0, 0, PRISM_U32, 0, 0},
      {PRISM_F32, 4, 1, 0, 0, PRISM_I64, 0, 0},
      {PRISM_U64, 8, 0, 0, 0, PRISM_I32, 0, 0},
      {PRISM_I32, 0, 1, 0, 0, PRISM_U64, 1, 0},
      {PRISM_F64, 4, 0, 0, 0, PRISM_U32, 1, 1},
  };
  const size_t ns[] = {(size_t)1 << 21, (size_t)1 << 21, 300000, 300000,
                       300000};
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
    if (prism_context_supports(ctx, cases[i].type))
      check_layout(ctx, &cases[i], L_ONE, ns[i], 0, ns[i], 0,
                   i == 1 ? VEC_SPECIAL : VEC_RANDOM);
  /* The big segment beside gaps and tiny ones. */
  const seg_case skew = {PRISM_U32, 4, 0, 0, 0, PRISM_U32, 0, 0};
  const int64_t n = (int64_t)1 << 21;
  const int64_t around[] = {3, 4, 6, n - 9, n - 8, n - 8, n - 1};
  unsigned char *keys = make_keys(PRISM_U32, KEYS_FEW, 99, (size_t)n);
  bounds b = bounds_of(around, 7);
  if ((size_t)n <= harness_max_n())
    check_case(ctx, &skew, keys, (size_t)n, &b, "one big among tiny");
  free(b.v);
  free(keys);
  prism_context_destroy(ctx);
}

/* 10^6 segments of 1 to 3 keys. */
Test(segmented_sort, million_tiny_segments) {
  prism_context *ctx = harness_context();
  const size_t n = 2100000; /* room for 10^6 segments of 2 keys on average */
  const seg_case cases[] = {
      {PRISM_U32, 4, 0, 0, 0, PRISM_U32, 0, 0},
      {PRISM_F64, 0, 1, 0, 0, PRISM_I64, 0, 0},
  };
  for (size_t i = 0; i < 2; i++) {
    if (!prism_context_supports(ctx, cases[i].type) || n > harness_max_n())
      continue;
    unsigned char *keys = make_keys(cases[i].type, VEC_RANDOM, 5 + i, n);
    bounds b = make_bounds(L_TINY, 0, n, 0, 5 + i);
    /* Exactly 10^6 segments: the rest of the array is a gap. */
    if (b.count > 1000000)
      b.count = 1000000;
    check_case(ctx, &cases[i], keys, n, &b, "10^6 tiny segments");
    free(b.v);
    free(keys);
  }
  prism_context_destroy(ctx);
}

/* More segments for the device-wide sort than the first readback brings
 * (the longest of every class is at most 131072 keys), each between tiny
 * ones of every other class. */
Test(segmented_sort, many_long_segments) {
  prism_context *ctx = harness_context();
  const size_t longs = 40, len = 131073;
  bounds b = {NULL, 0, 0};
  uint64_t rng = 77;
  size_t at = 3;
  push(&b, (int64_t)at);
  for (size_t s = 0; s < longs; s++) {
    at += len;
    push(&b, (int64_t)at);
    at += (size_t)(vec_next(&rng) % 300);
    push(&b, (int64_t)at);
  }
  b.count--;
  const size_t n = at + 5;
  const seg_case c = {PRISM_U32, 4, 1, 0, 0, PRISM_I64, 0, 0};
  unsigned char *keys = make_keys(c.type, VEC_RANDOM, 1234, n);
  if (n <= harness_max_n())
    check_case(ctx, &c, keys, n, &b, "40 long segments between short ones");
  free(keys);
  free(b.v);
  prism_context_destroy(ctx);
}

Test(segmented_sort, power_law_lengths) {
  prism_context *ctx = harness_context();
  const seg_case cases[] = {
      {PRISM_U32, 4, 0, 0, 0, PRISM_U32, 0, 0},
      {PRISM_F64, 0, 1, 0, 0, PRISM_I32, 0, 0},
      {PRISM_I64, 8, 0, 3, 40, PRISM_U64, 1, 0},
  };
  const size_t ns[] = {((size_t)1 << 20) + 3, 300007, 200003};
  for (size_t i = 0; i < 3; i++)
    if (prism_context_supports(ctx, cases[i].type))
      check_layout(ctx, &cases[i], L_POWER, ns[i], 0, ns[i], 0,
                   i == 2 ? KEYS_FEW : VEC_RANDOM);
  prism_context_destroy(ctx);
}

/* Equal lengths at the edges of warp, block and tile sizes, and of the
 * length classes of both policies (a segment past the longest of a class
 * takes the next class's kernel). */
Test(segmented_sort, tile_edge_lengths) {
  prism_context *ctx = harness_context();
  static const size_t lengths[] = {
      31,   32,   33,   63,   64,    65,    255,   256,   257,    1023,
      1024, 1025, 1791, 1792, 1793,  3839,  3840,  3841,  4095,   4096,
      4097, 8191, 8192, 8193, 16385, 65535, 65536, 65537, 131072, 131073};
  for (size_t i = 0; i < sizeof lengths / sizeof lengths[0]; i++) {
    const size_t len = lengths[i];
    const size_t n = len * (len <= 16385 ? 23 : 3) + len / 2;
    seg_case keys = {PRISM_U32,           0, (int)i % 2, 0, 0,
                     offset_types[i % 4], 0, i % 5 == 2};
    seg_case pairs = {PRISM_U64,  8, (int)(i + 1) % 2,
                      0,          0, offset_types[(i + 1) % 4],
                      i % 3 == 0, 0};
    check_layout(ctx, &keys, L_FIXED, n, 0, n, len, VEC_RANDOM);
    check_layout(ctx, &pairs, L_FIXED, n, 0, n, len,
                 i % 2 ? KEYS_FEW : VEC_RANDOM);
  }
  prism_context_destroy(ctx);
}

/* ---- In place and views ---------------------------------------------------
 */

Test(segmented_sort, in_place) {
  prism_context *ctx = harness_context();
  for (size_t t = 0; t < 6; t++) {
    if (!prism_context_supports(ctx, key_types[t]))
      continue;
    for (int v = 0; v < 3; v++) {
      seg_case c = {key_types[t],
                    (size_t)v * 4,
                    (int)t % 2,
                    0,
                    0,
                    offset_types[t % 4],
                    1,
                    0};
      check_layout(ctx, &c, (layout)((t + (size_t)v) % L_COUNT), 40009, 5,
                   40000, 1024, pick_pattern(key_types[t], t + (size_t)v));
    }
  }
  prism_context_destroy(ctx);
}

/* Every argument a view of one buffer, at offsets apart, poison between:
 * nothing outside the views may change. */
Test(segmented_sort, views) {
  prism_context *ctx = harness_context();
  for (int v = 0; v < 3; v++)
    for (int in_place = 0; in_place < 2; in_place++)
      for (int l = 0; l < L_COUNT; l += 2) {
        seg_case c = {
            v == 1 ? PRISM_I64 : PRISM_F32,    (size_t)v * 4, l % 4 == 2, 0, 0,
            offset_types[(size_t)(l + v) % 4], in_place,      1};
        if (prism_context_supports(ctx, c.type))
          check_layout(ctx, &c, (layout)l, 10007, (size_t)in_place * 3, 10000,
                       255, VEC_RANDOM);
      }
  prism_context_destroy(ctx);
}

/* ---- Bad segments ---------------------------------------------------------
 */

/* Good bounds over [0, n) but for a bad segment made by mode: 0 a bound
 * that decreases in the middle, 1 the last bound past n, 2 the first
 * bound negative (huge for unsigned types), 3 every segment bad from the
 * first. */
static bounds bad_bounds(size_t n, int mode, uint64_t seed) {
  bounds b = make_bounds(L_SHORT, 0, n, 0, seed);
  const size_t m = b.count / 2;
  switch (mode) {
  case 0:
    b.v[m] = b.v[m - 1] > 2 ? b.v[m - 1] - 2 : 0;
    if (b.v[m] == b.v[m - 1])
      b.v[m - 1] += 1;
    break;
  case 1:
    b.v[b.count] = (int64_t)n + 3;
    break;
  case 2:
    b.v[0] = -5;
    break;
  default:
    for (size_t s = 0; s <= b.count; s++)
      b.v[s] = (int64_t)(n + b.count - s);
    break;
  }
  return b;
}

Test(segmented_sort, bad_segments) {
  prism_context *ctx = harness_context();
  static const size_t ns[] = {40, 3000, 50021};
  for (size_t i = 0; i < 3; i++)
    for (int mode = 0; mode < 4; mode++)
      for (size_t o = 0; o < 4; o++) {
        const size_t n = ns[i];
        seg_case c = {key_types[(i + o) % 6],
                      (size_t)((o + (size_t)mode) % 3) * 4,
                      mode % 2,
                      0,
                      0,
                      offset_types[o],
                      (int)(i + o) % 2,
                      mode == 1 && o == 2};
        if (!prism_context_supports(ctx, c.type))
          continue;
        unsigned char *keys = make_keys(c.type, VEC_RANDOM, n + o, n);
        bounds b = bad_bounds(n, mode, n * 3 + (uint64_t)mode);
        check_case(ctx, &c, keys, n, &b, "a bad segment");
        free(b.v);
        free(keys);
        harness_assert_alive(ctx, "a bad segment");
        /* A good sort right after. */
        check_layout(ctx, &c, L_MIXED, n, 0, n, 0, VEC_RANDOM);
      }
  prism_context_destroy(ctx);
}

/* A bad segment with first_bad NULL: refused all the same. */
Test(segmented_sort, bad_segment_without_first_bad) {
  prism_context *ctx = harness_context();
  const uint32_t keys[8] = {8, 7, 6, 5, 4, 3, 2, 1};
  const int32_t offsets[] = {0, 4, 2, 8};
  prism_buffer *k = harness_upload(ctx, keys, sizeof keys);
  prism_buffer *out = harness_poisoned(ctx, sizeof keys);
  prism_buffer *vals = harness_upload(ctx, keys, sizeof keys);
  prism_buffer *vout = harness_poisoned(ctx, sizeof keys);
  prism_buffer *o = harness_upload(ctx, offsets, sizeof offsets);
  HARNESS_EXPECT(ctx, PRISM_INVALID_ARGUMENT, "segment 1 ",
                 prism_segmented_sort_keys(ctx, PRISM_U32, k, out, 8, PRISM_I32,
                                           o, 3, NULL, NULL));
  HARNESS_EXPECT(ctx, PRISM_INVALID_ARGUMENT, "prism_segmented_sort_pairs",
                 prism_segmented_sort_pairs(ctx, PRISM_U32, k, out, vals, vout,
                                            4, 8, PRISM_I32, o, 3, NULL, NULL));
  HARNESS_EXPECT(ctx, PRISM_INVALID_ARGUMENT, "segment 1 ",
                 prism_segmented_sort_keys(ctx, PRISM_U32, k, k, 8, PRISM_I32,
                                           o, 3, NULL, NULL));
  unsigned char *got = harness_download(out);
  expect_poison(got, 0, sizeof keys, "a bad segment", "of keys_out");
  free(got);
  got = harness_download(vout);
  expect_poison(got, 0, sizeof keys, "a bad segment", "of values_out");
  free(got);
  got = harness_download(k);
  cr_assert(memcmp(got, keys, sizeof keys) == 0, "in place: keys written");
  free(got);
  harness_assert_alive(ctx, "bad segments without first_bad");
  /* [0, 4) and [4, 8): each reversed. */
  const int32_t good[] = {0, 4, 8};
  prism_buffer *g = harness_upload(ctx, good, sizeof good);
  size_t first_bad = 3;
  HARNESS_OK(ctx, prism_segmented_sort_keys(ctx, PRISM_U32, k, out, 8,
                                            PRISM_I32, g, 2, NULL, &first_bad));
  cr_assert_eq(first_bad, SIZE_MAX);
  uint32_t sorted[8];
  HARNESS_OK(ctx, prism_buffer_read(out, 0, sorted, sizeof sorted));
  const uint32_t want[8] = {5, 6, 7, 8, 1, 2, 3, 4};
  cr_assert(memcmp(sorted, want, sizeof want) == 0,
            "got %u %u %u %u %u %u %u "
            "%u",
            sorted[0], sorted[1], sorted[2], sorted[3], sorted[4], sorted[5],
            sorted[6], sorted[7]);
  prism_buffer_destroy(g);
  prism_buffer_destroy(o);
  prism_buffer_destroy(vout);
  prism_buffer_destroy(vals);
  prism_buffer_destroy(out);
  prism_buffer_destroy(k);
  prism_context_destroy(ctx);
}

/* ---- No-ops ---------------------------------------------------------------
 */

/* n = 0 or num_segments = 0: OK without reading the offsets (bad ones
 * here), nothing written, first_bad SIZE_MAX. */
Test(segmented_sort, no_ops) {
  prism_context *ctx = harness_context();
  const int64_t garbage[] = {5, 1, -9, 1000};
  prism_buffer *keys = harness_poisoned(ctx, 400),
               *out = harness_poisoned(ctx, 400);
  prism_buffer *vals = harness_poisoned(ctx, 400),
               *vout = harness_poisoned(ctx, 400);
  prism_buffer *o = harness_upload(ctx, garbage, sizeof garbage);
  prism_buffer *empty = NULL;
  HARNESS_OK(ctx, prism_buffer_create(ctx, 0, &empty));
  size_t first_bad = 7;
  HARNESS_OK(ctx, prism_segmented_sort_keys(ctx, PRISM_U32, keys, out, 0,
                                            PRISM_I64, o, 3, NULL, &first_bad));
  cr_assert_eq(first_bad, SIZE_MAX, "n = 0: first_bad %zu", first_bad);
  first_bad = 7;
  HARNESS_OK(ctx, prism_segmented_sort_keys(ctx, PRISM_U32, keys, out, 50,
                                            PRISM_I64, o, 0, NULL, &first_bad));
  cr_assert_eq(first_bad, SIZE_MAX, "no segments: first_bad %zu", first_bad);
  first_bad = 7;
  HARNESS_OK(ctx, prism_segmented_sort_pairs(ctx, PRISM_I64, keys, out, vals,
                                             vout, 8, 0, PRISM_I32, o, 7, NULL,
                                             &first_bad));
  cr_assert_eq(first_bad, SIZE_MAX);
  first_bad = 7;
  HARNESS_OK(ctx, prism_segmented_sort_pairs(ctx, PRISM_I32, keys, out, vals,
                                             vout, 4, 100, PRISM_U64, o, 0,
                                             NULL, &first_bad));
  cr_assert_eq(first_bad, SIZE_MAX);
  HARNESS_OK(ctx, prism_segmented_sort_keys(ctx, PRISM_U32, keys, keys, 0,
                                            PRISM_I64, o, 3, NULL, NULL));
  HARNESS_OK(ctx,
             prism_segmented_sort_pairs(ctx, PRISM_U64, keys, keys, vals, vals,
                                        8, 50, PRISM_I64, o, 0, NULL, NULL));
  /* Empty buffers for n = 0, one offset for no segments. */
  HARNESS_OK(ctx, prism_segmented_sort_keys(ctx, PRISM_I64, empty, empty, 0,
                                            PRISM_U32, o, 0, NULL, &first_bad));
  HARNESS_OK(ctx, prism_segmented_sort_pairs(ctx, PRISM_U32, empty, empty,
                                             empty, empty, 4, 0, PRISM_U64, o,
                                             3, NULL, &first_bad));
  cr_assert_eq(first_bad, SIZE_MAX);
  /* The offsets buffer must still hold num_segments + 1 offsets: the
   * arguments are checked before the no-op. */
  HARNESS_EXPECT(ctx, PRISM_BUFFER_TOO_SMALL, "offsets",
                 prism_segmented_sort_keys(ctx, PRISM_U32, keys, out, 0,
                                           PRISM_I64, o, 4, NULL, NULL));
  HARNESS_EXPECT(ctx, PRISM_BUFFER_TOO_SMALL, "offsets",
                 prism_segmented_sort_keys(ctx, PRISM_U32, keys, out, 10,
                                           PRISM_U32, empty, 0, NULL, NULL));
  prism_buffer *const untouched[] = {keys, out, vals, vout};
  for (size_t i = 0; i < 4; i++) {
    unsigned char *got = harness_download(untouched[i]);
    expect_poison(got, 0, 400, "a no-op", "of a buffer");
    free(got);
  }
  harness_assert_alive(ctx, "the no-ops");
  prism_buffer_destroy(empty);
  prism_buffer_destroy(o);
  prism_buffer_destroy(vout);
  prism_buffer_destroy(vals);
  prism_buffer_destroy(out);
  prism_buffer_destroy(keys);
  prism_context_destroy(ctx);
}

/* ---- Bad arguments --------------------------------------------------------
 */

/* The call fails with want and a message holding needle; the context still
 * works. */
#define REFUSED(want, needle, call)                                            \
  do {                                                                         \
    HARNESS_EXPECT(ctx, want, needle, call);                                   \
    harness_assert_alive(ctx, #call);                                          \
  } while (0)

#define SK(...) prism_segmented_sort_keys(ctx, __VA_ARGS__)
#define SP(...) prism_segmented_sort_pairs(ctx, __VA_ARGS__)

static prism_buffer *view(prism_context *ctx, prism_buffer *parent,
                          size_t offset, size_t bytes) {
  prism_buffer *v = NULL;
  HARNESS_OK(ctx, prism_buffer_view(parent, offset, bytes, &v));
  return v;
}

Test(segmented_sort, bad_input) {
  prism_context *ctx = harness_context(), *other = harness_context();
  const prism_type U = PRISM_U32, O = PRISM_U32;
  /* 100 u32 keys (50 u64) per 400-byte buffer; offsets for 10 segments. */
  uint32_t bounds10[11];
  for (uint32_t s = 0; s <= 10; s++)
    bounds10[s] = 10 * s;
  prism_buffer *kin = harness_poisoned(ctx, 400),
               *kout = harness_poisoned(ctx, 400);
  prism_buffer *vin = harness_poisoned(ctx, 800),
               *vout = harness_poisoned(ctx, 800);
  prism_buffer *off = harness_upload(ctx, bounds10, sizeof bounds10);
  prism_buffer *small = harness_poisoned(ctx, 16);
  prism_buffer *foreign = harness_poisoned(other, 800);
  prism_buffer *big = harness_poisoned(ctx, 1600);
  /* Views of big: keys at 0 and 200 (overlapping a 400-byte range), one
   * short, one misaligned, offsets inside the outputs. */
  prism_buffer *k0 = view(ctx, big, 0, 400), *k8 = view(ctx, big, 8, 400);
  prism_buffer *odd = view(ctx, big, 2, 400);
  prism_buffer *off_in_k0 = view(ctx, big, 16, 44);
  prism_buffer *dead = harness_poisoned(ctx, 400);
  prism_buffer_destroy(dead);
  prism_sort_options bad_order;
  prism_sort_options_init(&bad_order, U);
  bad_order.order = (prism_order)2;
  prism_sort_options bad_bits;
  prism_sort_options_init(&bad_bits, U);
  bad_bits.end_bit = 33;
  size_t first_bad = 5;

  /* NULL context, buffers; dead and foreign buffers. */
  HARNESS_EXPECT(NULL, PRISM_NULL_POINTER, "ctx",
                 prism_segmented_sort_keys(NULL, U, kin, kout, 100, O, off, 10,
                                           NULL, NULL));
  HARNESS_EXPECT(NULL, PRISM_NULL_POINTER, "ctx",
                 prism_segmented_sort_pairs(NULL, U, kin, kout, vin, vout, 4,
                                            100, O, off, 10, NULL, NULL));
  REFUSED(PRISM_NULL_POINTER, "keys_in is NULL",
          SK(U, NULL, kout, 100, O, off, 10, NULL, &first_bad));
  cr_assert_eq(first_bad, SIZE_MAX, "first_bad is SIZE_MAX on a refusal");
  REFUSED(PRISM_NULL_POINTER, "keys_out is NULL",
          SK(U, kin, NULL, 100, O, off, 10, NULL, NULL));
  REFUSED(PRISM_NULL_POINTER, "offsets is NULL",
          SK(U, kin, kout, 100, O, NULL, 10, NULL, NULL));
  REFUSED(PRISM_NULL_POINTER, "values_in is NULL",
          SP(U, kin, kout, NULL, vout, 4, 100, O, off, 10, NULL, NULL));
  REFUSED(PRISM_NULL_POINTER, "values_out is NULL",
          SP(U, kin, kout, vin, NULL, 4, 100, O, off, 10, NULL, NULL));
  REFUSED(PRISM_INVALID_ARGUMENT, "offsets is not a live prism buffer",
          SK(U, kin, kout, 100, O, dead, 10, NULL, NULL));
  REFUSED(PRISM_CONTEXT_MISMATCH, "offsets belongs to another context",
          SK(U, kin, kout, 100, O, foreign, 10, NULL, NULL));
  REFUSED(PRISM_CONTEXT_MISMATCH, "values_out belongs to another context",
          SP(U, kin, kout, vin, foreign, 4, 100, O, off, 10, NULL, NULL));

  /* Bad enums and scalars. */
  REFUSED(PRISM_INVALID_ARGUMENT, "type 42",
          SK((prism_type)42, kin, kout, 100, O, off, 10, NULL, NULL));
  REFUSED(
      PRISM_INVALID_ARGUMENT, "type -1",
      SP((prism_type)-1, kin, kout, vin, vout, 4, 100, O, off, 10, NULL, NULL));
  REFUSED(PRISM_UNSUPPORTED, "u8",
          SK(PRISM_U8, kin, kout, 100, O, off, 10, NULL, NULL));
  REFUSED(PRISM_INVALID_ARGUMENT, "order 2",
          SK(U, kin, kout, 100, O, off, 10, &bad_order, NULL));
  REFUSED(PRISM_INVALID_ARGUMENT, "order 2",
          SP(U, kin, kout, vin, vout, 8, 100, O, off, 10, &bad_order, NULL));
  REFUSED(PRISM_INVALID_ARGUMENT, "end_bit 33",
          SK(U, kin, kout, 100, O, off, 10, &bad_bits, NULL));
  static const prism_type bad_offset_types[] = {PRISM_U8, PRISM_F32, PRISM_F64,
                                                (prism_type)-1, (prism_type)9};
  for (size_t i = 0; i < 5; i++) {
    REFUSED(PRISM_INVALID_ARGUMENT, "offset_type",
            SK(U, kin, kout, 100, bad_offset_types[i], off, 10, NULL, NULL));
    REFUSED(PRISM_INVALID_ARGUMENT, "offset_type",
            SP(U, kin, kout, vin, vout, 4, 100, bad_offset_types[i], off, 10,
               NULL, NULL));
  }
  static const size_t bad_sizes[] = {0, 1, 2, 3, 5, 16, SIZE_MAX};
  for (size_t i = 0; i < sizeof bad_sizes / sizeof bad_sizes[0]; i++)
    REFUSED(
        PRISM_INVALID_ARGUMENT, "value_size",
        SP(U, kin, kout, vin, vout, bad_sizes[i], 100, O, off, 10, NULL, NULL));
  REFUSED(PRISM_INVALID_ARGUMENT, "num_segments",
          SK(U, kin, kout, 100, O, off, SIZE_MAX, NULL, NULL));
  REFUSED(PRISM_INVALID_ARGUMENT, "overflow",
          SK(U, kin, kout, SIZE_MAX / 2, O, off, 10, NULL, NULL));
  /* 4-byte keys that fit size_t: keys_in is then too small, checked before
   * the values' count. */
  REFUSED(
      PRISM_BUFFER_TOO_SMALL, "keys_in",
      SP(U, kin, kout, vin, vout, 8, SIZE_MAX / 8 + 1, O, off, 10, NULL, NULL));

  /* Too small: keys for n, offsets for num_segments + 1. */
  REFUSED(PRISM_BUFFER_TOO_SMALL, "keys_in holds 400 bytes",
          SK(U, kin, kout, 101, O, off, 10, NULL, NULL));
  REFUSED(PRISM_BUFFER_TOO_SMALL, "keys_in holds 400 bytes",
          SK(PRISM_F64, kin, vout, 51, O, off, 10, NULL, NULL));
  REFUSED(PRISM_BUFFER_TOO_SMALL, "keys_out holds 16 bytes",
          SK(U, kin, small, 100, O, off, 10, NULL, NULL));
  REFUSED(PRISM_BUFFER_TOO_SMALL, "offsets holds 44 bytes",
          SK(U, kin, kout, 100, O, off, 11, NULL, NULL));
  REFUSED(PRISM_BUFFER_TOO_SMALL, "offsets holds 44 bytes",
          SK(U, kin, kout, 100, PRISM_I64, off, 10, NULL, NULL));
  REFUSED(PRISM_BUFFER_TOO_SMALL, "values_in holds 16 bytes",
          SP(U, kin, kout, small, vout, 4, 100, O, off, 10, NULL, NULL));
  REFUSED(PRISM_BUFFER_TOO_SMALL, "values_out holds 16 bytes",
          SP(U, kin, kout, vin, small, 8, 100, O, off, 10, NULL, NULL));

  /* Misaligned. */
  REFUSED(PRISM_INVALID_ARGUMENT, "keys_in is a view at byte 2",
          SK(U, odd, kout, 100, O, off, 10, NULL, NULL));
  REFUSED(PRISM_INVALID_ARGUMENT, "offsets is a view at byte 2",
          SK(U, kin, kout, 100, O, odd, 10, NULL, NULL));

  /* Aliasing: offsets in an output, keys as values, partial overlaps. */
  REFUSED(PRISM_INVALID_ARGUMENT, "offsets and keys_out",
          SK(U, kin, off, 10, O, off, 10, NULL, NULL));
  REFUSED(PRISM_INVALID_ARGUMENT, "offsets and keys_out",
          SK(U, kin, k0, 100, O, off_in_k0, 10, NULL, NULL));
  REFUSED(PRISM_INVALID_ARGUMENT, "offsets and keys_out",
          SK(U, k0, k0, 100, O, off_in_k0, 10, NULL, NULL));
  REFUSED(PRISM_INVALID_ARGUMENT, "offsets and values_out",
          SP(U, kin, kout, vin, off, 4, 10, O, off, 10, NULL, NULL));
  REFUSED(PRISM_INVALID_ARGUMENT, "offsets and values_out",
          SP(U, kin, kout, k0, k0, 4, 100, O, off_in_k0, 10, NULL, NULL));
  REFUSED(PRISM_INVALID_ARGUMENT, "keys_in and keys_out",
          SK(U, k0, k8, 100, O, off, 10, NULL, NULL));
  REFUSED(PRISM_INVALID_ARGUMENT, "keys_in and keys_out",
          SP(U, k8, k0, vin, vout, 4, 100, O, off, 10, NULL, NULL));
  REFUSED(PRISM_INVALID_ARGUMENT, "values_in and values_out",
          SP(U, kin, kout, k0, k8, 4, 100, O, off, 10, NULL, NULL));
  REFUSED(PRISM_INVALID_ARGUMENT, "keys_in and values_in",
          SP(U, kin, kout, kin, vout, 4, 100, O, off, 10, NULL, NULL));
  REFUSED(PRISM_INVALID_ARGUMENT, "keys_out and values_out",
          SP(U, kin, kout, vin, kout, 4, 100, O, off, 10, NULL, NULL));
  REFUSED(PRISM_INVALID_ARGUMENT, "keys_in and values_out",
          SP(U, kin, kin, vin, kin, 4, 100, O, off, 10, NULL, NULL));
  REFUSED(PRISM_INVALID_ARGUMENT, "keys_out and values_in",
          SP(U, kin, kout, kout, vout, 4, 100, O, off, 10, NULL, NULL));

  /* Nothing was written by the refused calls. */
  prism_buffer *const written[] = {kin, kout, vin, vout, small, big};
  for (size_t w = 0; w < sizeof written / sizeof written[0]; w++) {
    unsigned char *bytes = harness_download(written[w]);
    expect_poison(bytes, 0, prism_buffer_size(written[w]), "bad input",
                  "of an argument");
    free(bytes);
  }
  uint32_t after[11];
  HARNESS_OK(ctx, prism_buffer_read(off, 0, after, sizeof after));
  cr_assert(memcmp(after, bounds10, sizeof after) == 0, "offsets written");

  /* Allowed: keys_in, values_in and offsets may share memory (all read). */
  prism_buffer *shared = harness_upload(ctx, bounds10, sizeof bounds10);
  HARNESS_OK(ctx, SK(U, shared, kout, 11, O, shared, 1, NULL, &first_bad));
  cr_assert_eq(first_bad, SIZE_MAX);
  prism_buffer_destroy(shared);

  prism_buffer_destroy(off_in_k0);
  prism_buffer_destroy(odd);
  prism_buffer_destroy(k8);
  prism_buffer_destroy(k0);
  prism_buffer_destroy(big);
  prism_buffer_destroy(foreign);
  prism_buffer_destroy(small);
  prism_buffer_destroy(off);
  prism_buffer_destroy(vout);
  prism_buffer_destroy(vin);
  prism_buffer_destroy(kout);
  prism_buffer_destroy(kin);
  prism_context_destroy(other);
  prism_context_destroy(ctx);
}

/* ---- The serial version the bench times -----------------------------------
 */

/* ref_serial_segmented_sort (qsort per segment of the serial scratch) gives
 * the reference order: keys, and values that are the input indices. */
Test(segmented_sort, serial_reference_agrees) {
  for (size_t t = 0; t < 6; t++)
    for (size_t vs = 0; vs <= 8; vs += 4)
      for (int desc = 0; desc < 2; desc++)
        for (int narrow = 0; narrow < 2; narrow++) {
          const prism_type type = key_types[t];
          const unsigned bits = key_bits(type);
          const unsigned begin = narrow ? 3 : 0, end = narrow ? bits - 5 : bits;
          const size_t n = 30011;
          unsigned char *keys = make_keys(type, narrow ? VEC_RANDOM : KEYS_FEW,
                                          t * 8 + vs + (size_t)desc, n);
          bounds b = make_bounds((layout)((t + vs + (size_t)narrow) % L_COUNT),
                                 7, n - 3, 700, t + vs);
          uint64_t *o64 = harness_malloc((b.count + 1) * sizeof *o64);
          for (size_t s = 0; s <= b.count; s++)
            o64[s] = (uint64_t)b.v[s];
          size_t *perm = ref_segmented_sort_order_new(
              type, keys, n, o64, b.count, desc, begin, end);
          cr_assert_not_null(perm);
          unsigned char *scratch =
              harness_malloc(ref_serial_sort_bytes(type, vs, begin, end, n));
          unsigned char *result =
              harness_malloc(n * (prism_type_size(type) + vs));
          ref_serial_sort_load(type, vs, begin, end, keys, n, scratch);
          ref_serial_segmented_sort(type,
                                    desc ? PRISM_DESCENDING : PRISM_ASCENDING,
                                    vs, begin, end, scratch, n, o64, b.count);
          ref_serial_sort_store(type, vs, begin, end, scratch, n, result);
          char msg[256];
          cr_assert(
              ref_check_sort(type, vs, keys, n, perm, result, msg, sizeof msg),
              "serial segmented sort %s, value_size %zu, %s, bits "
              "[%u, %u), %s: %s",
              prism_type_name(type), vs, desc ? "descending" : "ascending",
              begin, end,
              layout_name((layout)((t + vs + (size_t)narrow) % L_COUNT)), msg);
          free(result);
          free(scratch);
          free(perm);
          free(o64);
          free(b.v);
          free(keys);
        }
}
