/* SPDX-License-Identifier: MIT */
/* prism_merge_keys and prism_merge_pairs against a stable sort of a || b
 * (ref_sort_order: equal keys of a come before those of b): every key type,
 * both orders, values of 4 and 8 bytes (each element's index in a || b,
 * which proves stability and the tie order), one side empty, sizes at the
 * tile edges, lopsided sides, ties, float total order, inputs and outputs
 * as views of shared buffers, unsorted input (inputs only, within the
 * outputs, the same on every run) and bad input. */
#include "harness.h"
#include "ref_sort.h"
#include "ref_value.h"
#include "vectors.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int harness_needs_backend = 1;

#define GUARD_BYTES 64

typedef struct merge_case {
  prism_type type;
  size_t value_size; /* 0: keys only */
  int descending;
} merge_case;

/* How a and b are made (each then sorted in the case's order). */
typedef enum merge_pattern {
  MP_RANDOM,       /* two random runs: interleaved at random */
  MP_SPREAD,       /* one sorted random run dealt evenly to a and b */
  MP_A_BELOW,      /* every key of a below every key of b */
  MP_A_ABOVE,      /* every key of a above every key of b */
  MP_FEW,          /* five distinct keys: long ties within and across */
  MP_SMALL,        /* integers in [-100, 100]: many ties */
  MP_EQUAL,        /* one key everywhere: a first, then b */
  MP_EXTREME,      /* the type's min, max and neighbours */
  MP_SPECIAL,      /* floats: NaNs, infinities, signed zeros, denormals */
  MP_SIGNED_ZEROS, /* floats: only -0.0 and +0.0 */
  MP_COUNT
} merge_pattern;

static const char *pattern_name(merge_pattern p) {
  static const char *const names[MP_COUNT] = {
      "random", "spread", "a-below", "a-above", "few",
      "small",  "equal",  "extreme", "special", "signed-zeros"};
  return names[p];
}

static int is_float(prism_type type) {
  return type == PRISM_F32 || type == PRISM_F64;
}

static int pattern_applies(merge_pattern p, prism_type type) {
  return (p != MP_SPECIAL && p != MP_SIGNED_ZEROS) || is_float(type);
}

static unsigned key_bits(prism_type type) {
  return (unsigned)prism_type_size(type) * 8;
}

static uint64_t get_bits(const unsigned char *p, size_t size, size_t i) {
  uint64_t v = 0;
  memcpy(&v, p + i * size, size); /* little-endian: low bytes */
  return v;
}

static void put_bits(unsigned char *p, size_t size, size_t i, uint64_t v) {
  memcpy(p + i * size, &v, size);
}

static size_t round8(size_t bytes) {
  return (bytes + 7) / 8 * 8;
}

/* Sort n keys on the host, in order (stable; ref_sort_order). */
static void sort_run(prism_type type, int descending, unsigned char *keys,
                     size_t n) {
  const size_t ks = prism_type_size(type);
  size_t *perm = harness_malloc(n * sizeof *perm);
  unsigned char *copy = harness_malloc(n * ks);
  if (n)
    memcpy(copy, keys, n * ks);
  ref_sort_order(type, copy, n, descending, 0, key_bits(type), perm);
  for (size_t i = 0; i < n; i++)
    memcpy(keys + i * ks, copy + perm[i] * ks, ks);
  free(copy);
  free(perm);
}

static void fill_pattern(prism_type type, merge_pattern p, uint64_t seed,
                         unsigned char *keys, size_t n) {
  static const vec_pattern shared[MP_COUNT] = {
      [MP_RANDOM] = VEC_RANDOM,   [MP_SPREAD] = VEC_RANDOM,
      [MP_A_BELOW] = VEC_RANDOM,  [MP_A_ABOVE] = VEC_RANDOM,
      [MP_FEW] = VEC_RANDOM,      [MP_SMALL] = VEC_SMALL,
      [MP_EQUAL] = VEC_EQUAL,     [MP_EXTREME] = VEC_EXTREME,
      [MP_SPECIAL] = VEC_SPECIAL, [MP_SIGNED_ZEROS] = VEC_SIGNED_ZEROS};
  const size_t ks = prism_type_size(type);
  vec_fill(type, shared[p], seed, keys, n);
  if (p == MP_FEW)
    for (size_t i = 0; i < n; i++)
      put_bits(keys, ks, i, (get_bits(keys, ks, i) % 5) * 0x01010101u);
}

/* The two runs of a case: ka (na keys) and kb (nb keys), each sorted in
 * the case's order. */
static void make_runs(const merge_case *c, merge_pattern p, uint64_t seed,
                      unsigned char *ka, size_t na, unsigned char *kb,
                      size_t nb) {
  const size_t ks = prism_type_size(c->type), n = na + nb;
  if (p == MP_SPREAD || p == MP_A_BELOW || p == MP_A_ABOVE) {
    unsigned char *all = harness_malloc(n * ks);
    fill_pattern(c->type, p, seed, all, n);
    sort_run(c->type, p == MP_SPREAD ? c->descending : 0, all, n);
    if (p == MP_SPREAD) {
      /* Element i of the sorted run goes to a when a's share of the first
       * i + 1 elements grows: a's keys spread evenly through b's. */
      size_t ia = 0, ib = 0;
      for (size_t i = 0; i < n; i++) {
        if ((i + 1) * na / n > i * na / n)
          memcpy(ka + ia++ * ks, all + i * ks, ks);
        else
          memcpy(kb + ib++ * ks, all + i * ks, ks);
      }
    } else {
      /* Ascending: the lowest na keys, or the highest. */
      const unsigned char *low = all,
                          *high = all + (p == MP_A_BELOW ? na : nb) * ks;
      if (na)
        memcpy(ka, p == MP_A_BELOW ? low : high, na * ks);
      if (nb)
        memcpy(kb, p == MP_A_BELOW ? high : low, nb * ks);
    }
    free(all);
  } else {
    fill_pattern(c->type, p, seed, ka, na);
    fill_pattern(c->type, p, seed * 3 + 1, kb, nb);
  }
  sort_run(c->type, c->descending, ka, na);
  sort_run(c->type, c->descending, kb, nb);
}

/* n values of vs bytes: value i is i (a || b's index). */
static unsigned char *index_values(size_t vs, size_t n) {
  unsigned char *v = harness_malloc(n * vs);
  for (size_t i = 0; i < n; i++)
    put_bits(v, vs, i, i);
  return v;
}

static prism_buffer *device_copy(prism_context *ctx, const void *host,
                                 size_t bytes) {
  prism_buffer *buf = harness_poisoned(ctx, bytes + GUARD_BYTES);
  if (bytes)
    HARNESS_OK(ctx, prism_buffer_write(buf, 0, host, bytes));
  return buf;
}

static prism_buffer *view(prism_context *ctx, prism_buffer *parent,
                          size_t offset, size_t bytes) {
  prism_buffer *v = NULL;
  HARNESS_OK(ctx, prism_buffer_view(parent, offset, bytes, &v));
  return v;
}

/* Bytes [from, to) are still poison. */
static void check_poison(const unsigned char *bytes, size_t from, size_t to,
                         const char *what, const char *where) {
  for (size_t i = from; i < to; i++)
    cr_assert_eq(bytes[i], HARNESS_POISON, "%s: byte %zu %s was written", what,
                 i, where);
}

static void describe(char *what, size_t size, const merge_case *c,
                     const char *how, size_t na, size_t nb) {
  snprintf(what, size, "merge %s %s%s, %s, na = %zu, nb = %zu",
           prism_type_name(c->type), c->descending ? "descending" : "ascending",
           c->value_size == 4   ? ", 4-byte values"
           : c->value_size == 8 ? ", 8-byte values"
                                : "",
           how, na, nb);
}

static prism_status call_merge(prism_context *ctx, const merge_case *c,
                               prism_buffer *ka, prism_buffer *va, size_t na,
                               prism_buffer *kb, prism_buffer *vb, size_t nb,
                               prism_buffer *ko, prism_buffer *vo) {
  const prism_order order = c->descending ? PRISM_DESCENDING : PRISM_ASCENDING;
  if (c->value_size)
    return prism_merge_pairs(ctx, c->type, order, ka, va, na, kb, vb, nb, ko,
                             vo, c->value_size);
  return prism_merge_keys(ctx, c->type, order, ka, na, kb, nb, ko);
}

/* got_keys (and got_values) against keys (a || b, n of them) in the
 * reference order perm: every key's bits, and every value (its input
 * index), must match. */
static void verify(const merge_case *c, const unsigned char *keys,
                   const size_t *perm, size_t n, const unsigned char *got_keys,
                   const unsigned char *got_values, const char *what) {
  const size_t ks = prism_type_size(c->type), vs = c->value_size;
  for (size_t i = 0; i < n; i++)
    if (memcmp(got_keys + i * ks, keys + perm[i] * ks, ks) != 0) {
      char g[64], w[64];
      ref_format(c->type, got_keys + i * ks, g, sizeof g);
      ref_format(c->type, keys + perm[i] * ks, w, sizeof w);
      cr_assert_fail("%s: key %zu is %s (bits %#llx), want %s (bits %#llx, "
                     "input %zu)",
                     what, i, g, (unsigned long long)get_bits(got_keys, ks, i),
                     w, (unsigned long long)get_bits(keys, ks, perm[i]),
                     perm[i]);
    }
  if (vs)
    for (size_t i = 0; i < n; i++) {
      uint64_t v = get_bits(got_values, vs, i);
      cr_assert_eq(v, (uint64_t)perm[i],
                   "%s: value %zu is %llu, want %zu (unstable, or ties not "
                   "to a?)",
                   what, i, (unsigned long long)v, perm[i]);
    }
}

/* Where the case's arguments lie. */
typedef enum layout {
  /* Each argument a buffer of its own, GUARD_BYTES of poison after. */
  LAYOUT_SEPARATE,
  /* The inputs views of one buffer (keys_a, keys_b, values_a, values_b,
   * 8 poisoned bytes between), the outputs views of another with
   * GUARD_BYTES of poison before, between and after. */
  LAYOUT_VIEWS
} layout;

/* Merge ka (na keys) and kb (nb keys) on the device and check the result
 * and that nothing else was written. */
static void check_merge(prism_context *ctx, const merge_case *c,
                        const unsigned char *ka, size_t na,
                        const unsigned char *kb, size_t nb, layout lay,
                        const char *how) {
  const size_t ks = prism_type_size(c->type), vs = c->value_size;
  const size_t n = na + nb;
  unsigned char *keys = harness_malloc(n * ks);
  if (na)
    memcpy(keys, ka, na * ks);
  if (nb)
    memcpy(keys + na * ks, kb, nb * ks);
  unsigned char *values = vs ? index_values(vs, n) : NULL;
  size_t *perm = harness_malloc(n * sizeof *perm);
  ref_sort_order(c->type, keys, n, c->descending, 0, key_bits(c->type), perm);
  char what[200], how_full[64];
  snprintf(how_full, sizeof how_full, "%s%s", how,
           lay == LAYOUT_VIEWS ? ", views" : "");
  describe(what, sizeof what, c, how_full, na, nb);

  /* Inputs: keys_a, keys_b, values_a, values_b. */
  const size_t in_len[4] = {na * ks, nb * ks, na * vs, nb * vs};
  const unsigned char *in_host[4] = {keys, keys + na * ks, values,
                                     values ? values + na * vs : NULL};
  prism_buffer *in[4] = {NULL, NULL, NULL, NULL}, *in_whole = NULL;
  size_t in_at[4] = {0, 0, 0, 0}, in_total = 8;
  prism_buffer *ko = NULL, *vo = NULL, *out_whole = NULL;
  size_t ko_at = 0, vo_at = 0, out_total = 0;
  const int parts = vs ? 4 : 2;
  if (lay == LAYOUT_SEPARATE) {
    for (int k = 0; k < parts; k++)
      in[k] = device_copy(ctx, in_host[k], in_len[k]);
    ko = harness_poisoned(ctx, n * ks + GUARD_BYTES);
    if (vs)
      vo = harness_poisoned(ctx, n * vs + GUARD_BYTES);
  } else {
    for (int k = 0; k < parts; k++) {
      in_at[k] = in_total;
      in_total = round8(in_total + in_len[k]) + 8;
    }
    in_whole = harness_poisoned(ctx, in_total);
    for (int k = 0; k < parts; k++) {
      if (in_len[k])
        HARNESS_OK(
            ctx, prism_buffer_write(in_whole, in_at[k], in_host[k], in_len[k]));
      in[k] = view(ctx, in_whole, in_at[k], in_len[k]);
    }
    ko_at = GUARD_BYTES;
    vo_at = round8(ko_at + n * ks) + GUARD_BYTES;
    out_total = vs ? round8(vo_at + n * vs) + GUARD_BYTES : vo_at;
    out_whole = harness_poisoned(ctx, out_total);
    ko = view(ctx, out_whole, ko_at, n * ks);
    if (vs)
      vo = view(ctx, out_whole, vo_at, n * vs);
  }

  prism_status st =
      call_merge(ctx, c, in[0], in[2], na, in[1], in[3], nb, ko, vo);
  cr_assert_eq(st, PRISM_OK, "%s -> %s: %s", what, prism_status_name(st),
               prism_context_last_error(ctx));

  if (lay == LAYOUT_SEPARATE) {
    unsigned char *got_k = harness_download(ko);
    unsigned char *got_v = vs ? harness_download(vo) : NULL;
    verify(c, keys, perm, n, got_k, got_v, what);
    check_poison(got_k, n * ks, n * ks + GUARD_BYTES, what,
                 "past keys_out's end");
    if (vs)
      check_poison(got_v, n * vs, n * vs + GUARD_BYTES, what,
                   "past values_out's end");
    free(got_v);
    free(got_k);
    for (int k = 0; k < parts; k++) {
      unsigned char *after = harness_download(in[k]);
      cr_assert(in_len[k] == 0 || memcmp(after, in_host[k], in_len[k]) == 0,
                "%s: input %d was modified", what, k);
      check_poison(after, in_len[k], in_len[k] + GUARD_BYTES, what,
                   "past an input's end");
      free(after);
    }
  } else {
    unsigned char *got = harness_download(out_whole);
    verify(c, keys, perm, n, got + ko_at, vs ? got + vo_at : NULL, what);
    check_poison(got, 0, ko_at, what, "before keys_out");
    check_poison(got, ko_at + n * ks, vs ? vo_at : out_total, what,
                 "past keys_out's end");
    if (vs)
      check_poison(got, vo_at + n * vs, out_total, what,
                   "past values_out's end");
    free(got);
    unsigned char *after = harness_download(in_whole);
    size_t at = 0;
    for (int k = 0; k < parts; k++) {
      check_poison(after, at, in_at[k], what, "between the inputs");
      cr_assert(in_len[k] == 0 ||
                    memcmp(after + in_at[k], in_host[k], in_len[k]) == 0,
                "%s: input %d was modified", what, k);
      at = in_at[k] + in_len[k];
    }
    check_poison(after, at, in_total, what, "past the inputs");
    free(after);
  }

  for (int k = 0; k < 4; k++)
    prism_buffer_destroy(in[k]);
  prism_buffer_destroy(in_whole);
  prism_buffer_destroy(ko);
  prism_buffer_destroy(vo);
  prism_buffer_destroy(out_whole);
  free(perm);
  free(values);
  free(keys);
}

static void check_pattern(prism_context *ctx, const merge_case *c,
                          merge_pattern p, size_t na, size_t nb, layout lay) {
  const size_t ks = prism_type_size(c->type);
  unsigned char *ka = harness_malloc(na * ks), *kb = harness_malloc(nb * ks);
  make_runs(c, p, (na * 131 + nb) * 31 + (uint64_t)p, ka, na, kb, nb);
  check_merge(ctx, c, ka, na, kb, nb, lay, pattern_name(p));
  free(kb);
  free(ka);
}

/* (na, nb): empty sides (the copy path), single keys, the CUDA tiles
 * (256 x 15 outputs for 4-byte keys, 256 x 7 for 8-byte) and their
 * neighbours, powers of two and neighbours, primes, several tiles, and
 * sides of very different lengths. */
typedef struct side_sizes {
  size_t na, nb;
} side_sizes;

static const side_sizes sweep[] = {
    {0, 0},        {0, 1},         {1, 0},       {0, 4097},    {3840, 0},
    {0, 100000},   {1, 1},         {1, 2},       {2, 1},       {3, 4},
    {16, 15},      {128, 129},     {500, 500},   {895, 896},   {896, 896},
    {896, 897},    {1792, 1},      {1, 1792},    {1792, 1793}, {1919, 1920},
    {1920, 1920},  {1920, 1921},   {3840, 1},    {1, 3840},    {3840, 3840},
    {2047, 2048},  {2048, 2048},   {2048, 2049}, {997, 1009},  {7919, 6007},
    {12289, 4093}, {50000, 50000}, {100000, 1},  {1, 100000},  {65537, 7},
    {7, 65537},    {30011, 101},   {101, 30011}};

/* Above this many outputs, only some patterns run. */
#define FULL_PATTERNS_MAX 10000

static int large_pattern(merge_pattern p) {
  return p == MP_RANDOM || p == MP_FEW || p == MP_EQUAL || p == MP_SPECIAL;
}

static void merge_suite(prism_type type, size_t value_size, int descending) {
  prism_context *ctx = harness_context();
  harness_require_type(ctx, type);
  const merge_case c = {type, value_size, descending};
  const size_t max_n = harness_max_n();
  for (size_t s = 0; s < sizeof sweep / sizeof sweep[0]; s++) {
    const size_t na = sweep[s].na, nb = sweep[s].nb;
    if (na + nb > max_n)
      continue;
    for (int p = 0; p < MP_COUNT; p++)
      if (pattern_applies(p, type) &&
          (na + nb <= FULL_PATTERNS_MAX || large_pattern(p)))
        check_pattern(ctx, &c, p, na, nb, LAYOUT_SEPARATE);
    check_pattern(ctx, &c, MP_RANDOM, na, nb, LAYOUT_VIEWS);
  }
  prism_context_destroy(ctx);
}

#define MERGE_TEST(T, NAME, VS, DESC)                                          \
  Test(merge, T##_##NAME) {                                                    \
    merge_suite(PRISM_##T, VS, DESC);                                          \
  }
#define MERGE_TESTS_FOR_TYPE(T)                                                \
  MERGE_TEST(T, keys_ascending, 0, 0)                                          \
  MERGE_TEST(T, keys_descending, 0, 1)                                         \
  MERGE_TEST(T, pairs4_ascending, 4, 0)                                        \
  MERGE_TEST(T, pairs4_descending, 4, 1)                                       \
  MERGE_TEST(T, pairs8_ascending, 8, 0)                                        \
  MERGE_TEST(T, pairs8_descending, 8, 1)

MERGE_TESTS_FOR_TYPE(I32)
MERGE_TESTS_FOR_TYPE(U32)
MERGE_TESTS_FOR_TYPE(F32)
MERGE_TESTS_FOR_TYPE(I64)
MERGE_TESTS_FOR_TYPE(U64)
MERGE_TESTS_FOR_TYPE(F64)

/* ---- Ties: a's keys first, then b's, each in input order ----------------- */

Test(merge, ties_go_to_a) {
  prism_context *ctx = harness_context();
  static const prism_type types[] = {PRISM_I32, PRISM_U32, PRISM_F32,
                                     PRISM_I64, PRISM_U64, PRISM_F64};
  static const side_sizes sizes[] = {{1, 1},    {3840, 3841}, {1792, 1793},
                                     {1, 5000}, {5000, 1},    {20011, 20011}};
  for (size_t t = 0; t < sizeof types / sizeof types[0]; t++) {
    if (!prism_context_supports(ctx, types[t]))
      continue;
    const size_t ks = prism_type_size(types[t]);
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
      const size_t na = sizes[s].na, nb = sizes[s].nb, n = na + nb;
      if (n > harness_max_n())
        continue;
      /* -0.0 for floats (a key whose bits are not all zero or all one). */
      unsigned char *keys = harness_malloc(n * ks);
      for (size_t i = 0; i < n; i++)
        put_bits(keys, ks, i, ks == 4 ? 0x80000000u : 0x8000000000000000ull);
      for (int v = 0; v < 2; v++) {
        const merge_case c = {types[t], v ? 8 : 4, (int)s & 1};
        const size_t vs = c.value_size;
        unsigned char *values = index_values(vs, n);
        prism_buffer *ka = harness_upload(ctx, keys, na * ks),
                     *kb = harness_upload(ctx, keys + na * ks, nb * ks),
                     *va = harness_upload(ctx, values, na * vs),
                     *vb = harness_upload(ctx, values + na * vs, nb * vs);
        prism_buffer *ko = harness_poisoned(ctx, n * ks),
                     *vo = harness_poisoned(ctx, n * vs);
        char what[200];
        describe(what, sizeof what, &c, "all keys equal", na, nb);
        cr_assert_eq(call_merge(ctx, &c, ka, va, na, kb, vb, nb, ko, vo),
                     PRISM_OK, "%s: %s", what, prism_context_last_error(ctx));
        unsigned char *got_k = harness_download(ko);
        unsigned char *got_v = harness_download(vo);
        cr_assert(memcmp(got_k, keys, n * ks) == 0, "%s: keys changed", what);
        for (size_t i = 0; i < n; i++)
          cr_assert_eq(get_bits(got_v, vs, i), (uint64_t)i,
                       "%s: value %zu is %llu, want %zu", what, i,
                       (unsigned long long)get_bits(got_v, vs, i), i);
        free(got_v);
        free(got_k);
        prism_buffer_destroy(vo);
        prism_buffer_destroy(ko);
        prism_buffer_destroy(vb);
        prism_buffer_destroy(va);
        prism_buffer_destroy(kb);
        prism_buffer_destroy(ka);
        free(values);
      }
      free(keys);
    }
  }
  prism_context_destroy(ctx);
}

/* ---- Float total order ----------------------------------------------------
 */

/* Float keys in IEEE-754 total order, ascending, by rank. */
#define FLOAT_RANKS 14
static const uint32_t ranked_f32[FLOAT_RANKS] = {
    0xffc00001u, /* -NaN, larger payload */
    0xffc00000u, /* -NaN (quiet) */
    0xff800001u, /* -NaN (signalling) */
    0xff800000u, /* -inf */
    0xbf800000u, /* -1.0 */
    0x80000001u, /* -denormal */
    0x80000000u, /* -0.0 */
    0x00000000u, /* +0.0 */
    0x00000001u, /* +denormal */
    0x3f800000u, /* 1.0 */
    0x7f800000u, /* +inf */
    0x7f800001u, /* +NaN (signalling) */
    0x7fc00000u, /* +NaN (quiet) */
    0x7fc00001u  /* +NaN, larger payload */
};
static const uint64_t ranked_f64[FLOAT_RANKS] = {
    0xfff8000000000001ull, 0xfff8000000000000ull, 0xfff0000000000001ull,
    0xfff0000000000000ull, 0xbff0000000000000ull, 0x8000000000000001ull,
    0x8000000000000000ull, 0x0000000000000000ull, 0x0000000000000001ull,
    0x3ff0000000000000ull, 0x7ff0000000000000ull, 0x7ff0000000000001ull,
    0x7ff8000000000000ull, 0x7ff8000000000001ull};

/* Merge the float keys of ranks ra (na) and rb (nb), each sorted in the
 * case's order, and check against a serial merge of the ranks (no
 * reference sort, no key image): keys by bits, values by input index. */
static void check_ranks(prism_context *ctx, const merge_case *c, const int *ra,
                        size_t na, const int *rb, size_t nb) {
  const size_t ks = prism_type_size(c->type), vs = c->value_size;
  const size_t n = na + nb;
  unsigned char *keys = harness_malloc(n * ks);
  for (size_t i = 0; i < n; i++) {
    int r = i < na ? ra[i] : rb[i - na];
    put_bits(keys, ks, i, ks == 4 ? ranked_f32[r] : ranked_f64[r]);
  }
  size_t *perm = harness_malloc(n * sizeof *perm);
  size_t i = 0, j = 0, k = 0;
  while (i < na || j < nb) {
    int take_a = j == nb ||
                 (i < na && (c->descending ? ra[i] >= rb[j] : ra[i] <= rb[j]));
    perm[k++] = take_a ? i++ : na + j++;
  }
  unsigned char *values = vs ? index_values(vs, n) : NULL;
  prism_buffer *ka = device_copy(ctx, keys, na * ks),
               *kb = device_copy(ctx, keys + na * ks, nb * ks);
  prism_buffer *va = vs ? device_copy(ctx, values, na * vs) : NULL,
               *vb = vs ? device_copy(ctx, values + na * vs, nb * vs) : NULL;
  prism_buffer *ko = harness_poisoned(ctx, n * ks + GUARD_BYTES),
               *vo = vs ? harness_poisoned(ctx, n * vs + GUARD_BYTES) : NULL;
  char what[200];
  describe(what, sizeof what, c, "float total order", na, nb);
  cr_assert_eq(call_merge(ctx, c, ka, va, na, kb, vb, nb, ko, vo), PRISM_OK,
               "%s: %s", what, prism_context_last_error(ctx));
  unsigned char *got_k = harness_download(ko);
  unsigned char *got_v = vs ? harness_download(vo) : NULL;
  verify(c, keys, perm, n, got_k, got_v, what);
  check_poison(got_k, n * ks, n * ks + GUARD_BYTES, what,
               "past keys_out's end");
  if (vs)
    check_poison(got_v, n * vs, n * vs + GUARD_BYTES, what,
                 "past values_out's end");
  free(got_v);
  free(got_k);
  prism_buffer_destroy(vo);
  prism_buffer_destroy(ko);
  prism_buffer_destroy(vb);
  prism_buffer_destroy(va);
  prism_buffer_destroy(kb);
  prism_buffer_destroy(ka);
  free(values);
  free(perm);
  free(keys);
}

static int cmp_int_up(const void *x, const void *y) {
  int a = *(const int *)x, b = *(const int *)y;
  return (a > b) - (a < b);
}

static int cmp_int_down(const void *x, const void *y) {
  return cmp_int_up(y, x);
}

Test(merge, float_total_order) {
  prism_context *ctx = harness_context();
  /* Every rank on one side or both, ties across the sides. */
  static const int a_up[] = {0, 3, 3, 4, 6, 7, 7, 9, 10, 12};
  static const int b_up[] = {1, 2, 3, 5, 6, 6, 7, 8, 10, 11, 12, 13};
  const size_t na = sizeof a_up / sizeof a_up[0],
               nb = sizeof b_up / sizeof b_up[0];
  int a_down[sizeof a_up / sizeof a_up[0]],
      b_down[sizeof b_up / sizeof b_up[0]];
  for (size_t i = 0; i < na; i++)
    a_down[i] = a_up[na - 1 - i];
  for (size_t i = 0; i < nb; i++)
    b_down[i] = b_up[nb - 1 - i];
  /* Many tiles of random ranks. */
  static const side_sizes big[] = {{3840, 3841}, {5003, 20011}, {1, 9000}};
  for (int f = 0; f < 2; f++) {
    const prism_type type = f ? PRISM_F64 : PRISM_F32;
    if (!prism_context_supports(ctx, type))
      continue;
    for (int desc = 0; desc < 2; desc++)
      for (size_t vs = 0; vs <= 8; vs += 4) {
        const merge_case c = {type, vs, desc};
        check_ranks(ctx, &c, desc ? a_down : a_up, na, desc ? b_down : b_up,
                    nb);
        check_ranks(ctx, &c, desc ? b_down : b_up, nb, desc ? a_down : a_up,
                    na);
        for (size_t s = 0; s < sizeof big / sizeof big[0]; s++) {
          const size_t ma = big[s].na, mb = big[s].nb;
          if (ma + mb > harness_max_n())
            continue;
          int *ra = harness_malloc(ma * sizeof *ra),
              *rb = harness_malloc(mb * sizeof *rb);
          uint64_t rng = ma * 7 + mb + (uint64_t)desc;
          for (size_t i = 0; i < ma; i++)
            ra[i] = (int)(vec_next(&rng) % FLOAT_RANKS);
          for (size_t i = 0; i < mb; i++)
            rb[i] = (int)(vec_next(&rng) % FLOAT_RANKS);
          qsort(ra, ma, sizeof *ra, desc ? cmp_int_down : cmp_int_up);
          qsort(rb, mb, sizeof *rb, desc ? cmp_int_down : cmp_int_up);
          check_ranks(ctx, &c, ra, ma, rb, mb);
          free(rb);
          free(ra);
        }
      }
  }
  prism_context_destroy(ctx);
}

/* ---- Inputs that share memory ----------------------------------------------
 */

/* a and b views of one buffer of sorted keys: the same view for both,
 * overlapping views, and the outputs carved from the same allocation
 * right after the inputs. */
static void check_shared(prism_context *ctx, const merge_case *c, size_t total,
                         size_t a_first, size_t na, size_t b_first, size_t nb,
                         int one_view) {
  const size_t ks = prism_type_size(c->type), vs = c->value_size;
  const size_t n = na + nb;
  unsigned char *all = harness_malloc(total * ks);
  fill_pattern(c->type, MP_SMALL, total + a_first * 3 + b_first, all, total);
  sort_run(c->type, c->descending, all, total);
  unsigned char *keys = harness_malloc(n * ks);
  if (na)
    memcpy(keys, all + a_first * ks, na * ks);
  if (nb)
    memcpy(keys + na * ks, all + b_first * ks, nb * ks);
  size_t *perm = harness_malloc(n * sizeof *perm);
  ref_sort_order(c->type, keys, n, c->descending, 0, key_bits(c->type), perm);
  /* One allocation: [keys][values (index i)][keys_out][values_out][guard],
   * a value at the same element as its key, so a pair's value is its
   * position in the shared run; values_a and values_b share as the keys
   * do. */
  const size_t keys_at = 0, values_at = round8(total * ks);
  const size_t ko_at = values_at + round8(total * vs);
  const size_t vo_at = ko_at + round8(n * ks);
  const size_t end = vo_at + n * vs, bytes = end + GUARD_BYTES;
  prism_buffer *whole = harness_poisoned(ctx, bytes);
  HARNESS_OK(ctx, prism_buffer_write(whole, keys_at, all, total * ks));
  unsigned char *pos = NULL;
  if (vs) {
    pos = index_values(vs, total);
    HARNESS_OK(ctx, prism_buffer_write(whole, values_at, pos, total * vs));
  }
  prism_buffer *ka = view(ctx, whole, keys_at + a_first * ks, na * ks);
  cr_assert(!one_view || (a_first == b_first && na == nb));
  prism_buffer *kb =
      one_view ? ka : view(ctx, whole, keys_at + b_first * ks, nb * ks);
  prism_buffer *va = NULL, *vb = NULL, *vo = NULL;
  if (vs) {
    va = view(ctx, whole, values_at + a_first * vs, na * vs);
    vb = kb == ka ? va : view(ctx, whole, values_at + b_first * vs, nb * vs);
    vo = view(ctx, whole, vo_at, n * vs);
  }
  prism_buffer *ko = view(ctx, whole, ko_at, n * ks);
  char what[200], how[80];
  snprintf(how, sizeof how, "shared inputs at %zu and %zu of %zu%s", a_first,
           b_first, total, kb == ka ? ", one view" : "");
  describe(what, sizeof what, c, how, na, nb);
  cr_assert_eq(call_merge(ctx, c, ka, va, na, kb, vb, nb, ko, vo), PRISM_OK,
               "%s: %s", what, prism_context_last_error(ctx));
  unsigned char *got = harness_download(whole);
  cr_assert(memcmp(got + keys_at, all, total * ks) == 0,
            "%s: the input keys changed", what);
  if (vs) {
    cr_assert(memcmp(got + values_at, pos, total * vs) == 0,
              "%s: the input values changed", what);
    /* Values are positions in the shared run: map to a || b's index. */
    for (size_t i = 0; i < n; i++) {
      uint64_t p = get_bits(got + vo_at, vs, i);
      uint64_t want =
          perm[i] < na ? a_first + perm[i] : b_first + (perm[i] - na);
      cr_assert_eq(p, want, "%s: value %zu is %llu, want %llu", what, i,
                   (unsigned long long)p, (unsigned long long)want);
    }
  }
  {
    const merge_case keys_only = {c->type, 0, c->descending};
    verify(&keys_only, keys, perm, n, got + ko_at, NULL, what);
  }
  check_poison(got, ko_at + n * ks, vs ? vo_at : bytes, what,
               "past keys_out's end");
  check_poison(got, end, bytes, what, "past the outputs");
  free(got);
  prism_buffer_destroy(ko);
  prism_buffer_destroy(vo);
  if (vb != va)
    prism_buffer_destroy(vb);
  prism_buffer_destroy(va);
  if (kb != ka)
    prism_buffer_destroy(kb);
  prism_buffer_destroy(ka);
  prism_buffer_destroy(whole);
  free(pos);
  free(perm);
  free(keys);
  free(all);
}

Test(merge, shared_inputs) {
  prism_context *ctx = harness_context();
  static const prism_type types[] = {PRISM_I32, PRISM_F32, PRISM_U64,
                                     PRISM_F64};
  for (size_t t = 0; t < sizeof types / sizeof types[0]; t++) {
    if (!prism_context_supports(ctx, types[t]))
      continue;
    for (int desc = 0; desc < 2; desc++)
      for (size_t vs = 0; vs <= 8; vs += 4) {
        const merge_case c = {types[t], vs, desc};
        /* The same view as a and as b. */
        check_shared(ctx, &c, 1, 0, 1, 0, 1, 1);
        check_shared(ctx, &c, 5000, 0, 5000, 0, 5000, 1);
        check_shared(ctx, &c, 4000, 100, 3841, 100, 3841, 1);
        /* The same range through two views. */
        check_shared(ctx, &c, 3000, 1000, 2000, 1000, 2000, 0);
        /* Overlapping views, and b inside a. */
        check_shared(ctx, &c, 9000, 0, 6000, 2500, 6500, 0);
        check_shared(ctx, &c, 9000, 17, 8000, 4000, 1, 0);
        /* Apart in one allocation; one side empty. */
        check_shared(ctx, &c, 10000, 0, 3000, 6000, 4000, 0);
        check_shared(ctx, &c, 100, 10, 0, 20, 70, 0);
      }
  }
  prism_context_destroy(ctx);
}

/* ---- Unsorted input
 * ---------------------------------------------------------- */

/* Distinct keys: bits of j-th key are an invertible function of j. */
#define UNSORTED_MUL 0x9E3779B97F4A7C15ull
#define UNSORTED_XOR 0x5851F42D4C957F2Dull

static uint64_t width_mask(size_t ks) {
  return ks == 4 ? 0xffffffffull : ~0ull;
}

static uint64_t unsorted_key(size_t j, size_t ks) {
  return ((UNSORTED_MUL * (j + 1)) ^ UNSORTED_XOR) & width_mask(ks);
}

/* The j whose key has these bits. */
static uint64_t unsorted_index(uint64_t bits, size_t ks) {
  uint64_t inv = UNSORTED_MUL; /* Newton: each step doubles the good bits */
  for (int k = 0; k < 5; k++)
    inv *= 2 - UNSORTED_MUL * inv;
  return (((bits ^ UNSORTED_XOR) & width_mask(ks)) * inv & width_mask(ks)) - 1;
}

typedef enum unsorted_kind {
  UNSORTED_RANDOM,   /* both runs in no order */
  UNSORTED_REVERSED, /* both runs sorted the other way */
  UNSORTED_B_ONLY,   /* a sorted, b in no order */
  UNSORTED_KINDS
} unsorted_kind;

/* Unsorted runs get an unspecified arrangement (prism.h), but every
 * output is one of the inputs (a key, and for pairs that key's value),
 * nothing lands past the outputs, and a second run gives the same bits. */
static void check_unsorted(prism_context *ctx, const merge_case *c,
                           unsorted_kind kind, size_t na, size_t nb) {
  static const char *const kind_names[UNSORTED_KINDS] = {
      "unsorted", "sorted the other way", "b unsorted"};
  const size_t ks = prism_type_size(c->type), vs = c->value_size;
  const size_t n = na + nb;
  unsigned char *keys = harness_malloc(n * ks);
  for (size_t j = 0; j < n; j++)
    put_bits(keys, ks, j, unsorted_key(j, ks));
  if (kind == UNSORTED_REVERSED) {
    sort_run(c->type, !c->descending, keys, na);
    sort_run(c->type, !c->descending, keys + na * ks, nb);
  } else if (kind == UNSORTED_B_ONLY) {
    sort_run(c->type, c->descending, keys, na);
  }
  /* Where the key made from j now lies in a || b. */
  size_t *where = harness_malloc(n * sizeof *where);
  for (size_t i = 0; i < n; i++) {
    uint64_t j = unsorted_index(get_bits(keys, ks, i), ks);
    cr_assert(j < n, "the key generator is not invertible");
    where[j] = i;
  }
  unsigned char *values = vs ? index_values(vs, n) : NULL;
  prism_buffer *ka = device_copy(ctx, keys, na * ks),
               *kb = device_copy(ctx, keys + na * ks, nb * ks);
  prism_buffer *va = vs ? device_copy(ctx, values, na * vs) : NULL,
               *vb = vs ? device_copy(ctx, values + na * vs, nb * vs) : NULL;
  char what[200];
  describe(what, sizeof what, c, kind_names[kind], na, nb);
  unsigned char *first_k = NULL, *first_v = NULL;
  for (int run = 0; run < 2; run++) {
    prism_buffer *ko = harness_poisoned(ctx, n * ks + GUARD_BYTES),
                 *vo = vs ? harness_poisoned(ctx, n * vs + GUARD_BYTES) : NULL;
    cr_assert_eq(call_merge(ctx, c, ka, va, na, kb, vb, nb, ko, vo), PRISM_OK,
                 "%s: %s", what, prism_context_last_error(ctx));
    unsigned char *got_k = harness_download(ko);
    unsigned char *got_v = vs ? harness_download(vo) : NULL;
    if (run == 0) {
      for (size_t i = 0; i < n; i++) {
        uint64_t bits = get_bits(got_k, ks, i);
        uint64_t j = unsorted_index(bits, ks);
        cr_assert(j < n, "%s: key %zu (bits %#llx) is no input's", what, i,
                  (unsigned long long)bits);
        if (vs)
          cr_assert_eq(get_bits(got_v, vs, i), (uint64_t)where[j],
                       "%s: value %zu is %llu, want %zu (its key's)", what, i,
                       (unsigned long long)get_bits(got_v, vs, i), where[j]);
      }
      check_poison(got_k, n * ks, n * ks + GUARD_BYTES, what,
                   "past keys_out's end");
      if (vs)
        check_poison(got_v, n * vs, n * vs + GUARD_BYTES, what,
                     "past values_out's end");
      first_k = got_k;
      first_v = got_v;
    } else {
      cr_assert(memcmp(got_k, first_k, n * ks + GUARD_BYTES) == 0,
                "%s: the keys differ between two runs", what);
      cr_assert(!vs || memcmp(got_v, first_v, n * vs + GUARD_BYTES) == 0,
                "%s: the values differ between two runs", what);
      free(got_v);
      free(got_k);
    }
    prism_buffer_destroy(vo);
    prism_buffer_destroy(ko);
  }
  free(first_v);
  free(first_k);
  prism_buffer_destroy(vb);
  prism_buffer_destroy(va);
  prism_buffer_destroy(kb);
  prism_buffer_destroy(ka);
  free(values);
  free(where);
  free(keys);
}

static void unsorted_suite(size_t value_size) {
  prism_context *ctx = harness_context();
  static const prism_type types[] = {PRISM_I32, PRISM_U32, PRISM_F32,
                                     PRISM_I64, PRISM_U64, PRISM_F64};
  static const side_sizes sizes[] = {{5, 3},       {16, 15},      {1000, 1000},
                                     {1920, 1921}, {3840, 3841},  {1, 4000},
                                     {4000, 1},    {20011, 30011}};
  for (size_t t = 0; t < sizeof types / sizeof types[0]; t++) {
    if (!prism_context_supports(ctx, types[t]))
      continue;
    for (int desc = 0; desc < 2; desc++) {
      const merge_case c = {types[t], value_size, desc};
      for (int kind = 0; kind < UNSORTED_KINDS; kind++)
        for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
          if (sizes[s].na + sizes[s].nb <= harness_max_n())
            check_unsorted(ctx, &c, kind, sizes[s].na, sizes[s].nb);
    }
  }
  prism_context_destroy(ctx);
}

Test(merge, unsorted_keys) {
  unsorted_suite(0);
}
Test(merge, unsorted_pairs4) {
  unsorted_suite(4);
}
Test(merge, unsorted_pairs8) {
  unsorted_suite(8);
}

/* ---- Bad input
 * ------------------------------------------------------------------ */

/* The call fails with want and a message holding needle, and the context
 * still works. */
#define REFUSED(want, needle, call)                                            \
  do {                                                                         \
    HARNESS_EXPECT(ctx, want, needle, call);                                   \
    harness_assert_alive(ctx, #call);                                          \
  } while (0)

Test(merge, bad_input) {
  prism_context *ctx = harness_context(), *other = harness_context();
  const prism_order up = PRISM_ASCENDING;
  /* a, b: 400 bytes (100 u32, 50 u64); out: 800 bytes. */
  prism_buffer *a = harness_poisoned(ctx, 400), *b = harness_poisoned(ctx, 400);
  prism_buffer *va = harness_poisoned(ctx, 400),
               *vb = harness_poisoned(ctx, 400);
  prism_buffer *out = harness_poisoned(ctx, 800),
               *vout = harness_poisoned(ctx, 800);
  prism_buffer *small = harness_poisoned(ctx, 16);
  prism_buffer *foreign = harness_poisoned(other, 800);
  /* Views: over a (overlapping it), over out, short, misaligned. */
  prism_buffer *in_a = view(ctx, a, 40, 200), *in_out = view(ctx, out, 60, 400);
  prism_buffer *out_short = view(ctx, out, 0, 76);
  prism_buffer *odd2 = view(ctx, b, 2, 200), *odd4 = view(ctx, b, 4, 200);

  /* NULL context and buffers. */
  HARNESS_EXPECT(NULL, PRISM_NULL_POINTER, "ctx",
                 prism_merge_keys(NULL, PRISM_U32, up, a, 10, b, 10, out));
  harness_assert_alive(ctx, "prism_merge_keys(NULL, ...)");
  HARNESS_EXPECT(NULL, PRISM_NULL_POINTER, "ctx",
                 prism_merge_pairs(NULL, PRISM_U32, up, a, va, 10, b, vb, 10,
                                   out, vout, 4));
  harness_assert_alive(ctx, "prism_merge_pairs(NULL, ...)");
  REFUSED(PRISM_NULL_POINTER, "a is NULL",
          prism_merge_keys(ctx, PRISM_U32, up, NULL, 10, b, 10, out));
  REFUSED(PRISM_NULL_POINTER, "a is NULL",
          prism_merge_keys(ctx, PRISM_U32, up, NULL, 0, b, 10, out));
  REFUSED(PRISM_NULL_POINTER, "b is NULL",
          prism_merge_keys(ctx, PRISM_U32, up, a, 10, NULL, 10, out));
  REFUSED(PRISM_NULL_POINTER, "out is NULL",
          prism_merge_keys(ctx, PRISM_U32, up, a, 10, b, 10, NULL));
  REFUSED(PRISM_NULL_POINTER, "keys_a is NULL",
          prism_merge_pairs(ctx, PRISM_U32, up, NULL, va, 10, b, vb, 10, out,
                            vout, 4));
  REFUSED(PRISM_NULL_POINTER, "values_a is NULL",
          prism_merge_pairs(ctx, PRISM_U32, up, a, NULL, 10, b, vb, 10, out,
                            vout, 4));
  REFUSED(PRISM_NULL_POINTER, "keys_b is NULL",
          prism_merge_pairs(ctx, PRISM_U32, up, a, va, 10, NULL, vb, 10, out,
                            vout, 4));
  REFUSED(PRISM_NULL_POINTER, "values_b is NULL",
          prism_merge_pairs(ctx, PRISM_U32, up, a, va, 10, b, NULL, 10, out,
                            vout, 4));
  REFUSED(PRISM_NULL_POINTER, "keys_out is NULL",
          prism_merge_pairs(ctx, PRISM_U32, up, a, va, 10, b, vb, 10, NULL,
                            vout, 4));
  REFUSED(PRISM_NULL_POINTER, "values_out is NULL",
          prism_merge_pairs(ctx, PRISM_U32, up, a, va, 10, b, vb, 10, out, NULL,
                            4));
  /* Destroyed just before the call, so no new handle takes its address. */
  prism_buffer *dead = harness_poisoned(ctx, 400);
  prism_buffer_destroy(dead);
  REFUSED(PRISM_INVALID_ARGUMENT, "b is not a live prism buffer",
          prism_merge_keys(ctx, PRISM_U32, up, a, 10, dead, 10, out));
  REFUSED(PRISM_CONTEXT_MISMATCH, "a belongs to another context",
          prism_merge_keys(ctx, PRISM_U32, up, foreign, 10, b, 10, out));
  REFUSED(PRISM_CONTEXT_MISMATCH, "out belongs to another context",
          prism_merge_keys(ctx, PRISM_U32, up, a, 10, b, 10, foreign));
  REFUSED(PRISM_CONTEXT_MISMATCH, "values_out belongs to another context",
          prism_merge_pairs(ctx, PRISM_U32, up, a, va, 10, b, vb, 10, out,
                            foreign, 4));

  /* Type, order, value size. */
  REFUSED(PRISM_UNSUPPORTED, "u8",
          prism_merge_keys(ctx, PRISM_U8, up, a, 10, b, 10, out));
  REFUSED(
      PRISM_UNSUPPORTED, "u8",
      prism_merge_pairs(ctx, PRISM_U8, up, a, va, 10, b, vb, 10, out, vout, 4));
  REFUSED(PRISM_INVALID_ARGUMENT, "type 42",
          prism_merge_keys(ctx, (prism_type)42, up, a, 10, b, 10, out));
  REFUSED(PRISM_INVALID_ARGUMENT, "type 7",
          prism_merge_keys(ctx, (prism_type)PRISM_TYPE_COUNT, up, a, 10, b, 10,
                           out));
  REFUSED(PRISM_INVALID_ARGUMENT, "type -1",
          prism_merge_pairs(ctx, (prism_type)-1, up, a, va, 10, b, vb, 10, out,
                            vout, 4));
  REFUSED(PRISM_INVALID_ARGUMENT, "order 2",
          prism_merge_keys(ctx, PRISM_U32, (prism_order)2, a, 10, b, 10, out));
  REFUSED(PRISM_INVALID_ARGUMENT, "order -1",
          prism_merge_pairs(ctx, PRISM_U32, (prism_order)-1, a, va, 10, b, vb,
                            10, out, vout, 4));
  static const size_t bad_sizes[] = {0, 1, 2, 3, 5, 16, SIZE_MAX};
  for (size_t i = 0; i < sizeof bad_sizes / sizeof bad_sizes[0]; i++)
    REFUSED(PRISM_INVALID_ARGUMENT, "value_size",
            prism_merge_pairs(ctx, PRISM_U64, up, a, va, 10, b, vb, 10, out,
                              vout, bad_sizes[i]));
  if (!prism_context_supports(ctx, PRISM_F64))
    REFUSED(PRISM_UNSUPPORTED, "f64",
            prism_merge_keys(ctx, PRISM_F64, up, a, 10, b, 10, out));

  /* Too small: the inputs for na and nb, the outputs for na + nb. */
  REFUSED(PRISM_BUFFER_TOO_SMALL, "a holds 400 bytes",
          prism_merge_keys(ctx, PRISM_U32, up, a, 101, b, 10, out));
  REFUSED(PRISM_BUFFER_TOO_SMALL, "b holds 400 bytes",
          prism_merge_keys(ctx, PRISM_U32, up, a, 0, b, 101, out));
  REFUSED(PRISM_BUFFER_TOO_SMALL, "a holds 400 bytes",
          prism_merge_keys(ctx, PRISM_I64, up, a, 51, b, 1, out));
  REFUSED(PRISM_BUFFER_TOO_SMALL, "out holds 76 bytes",
          prism_merge_keys(ctx, PRISM_U32, up, a, 10, b, 10, out_short));
  REFUSED(PRISM_BUFFER_TOO_SMALL, "out holds 16 bytes",
          prism_merge_keys(ctx, PRISM_F32, up, a, 0, b, 5, small));
  REFUSED(PRISM_BUFFER_TOO_SMALL, "out holds 800 bytes",
          prism_merge_keys(ctx, PRISM_U64, up, out, 100, b, 1, vout));
  REFUSED(PRISM_BUFFER_TOO_SMALL, "values_a holds 400 bytes",
          prism_merge_pairs(ctx, PRISM_U32, up, a, va, 60, b, vb, 10, out, vout,
                            8));
  REFUSED(PRISM_BUFFER_TOO_SMALL, "values_b holds 16 bytes",
          prism_merge_pairs(ctx, PRISM_U32, up, a, va, 10, b, small, 10, out,
                            vout, 4));
  REFUSED(PRISM_BUFFER_TOO_SMALL, "values_out holds 76 bytes",
          prism_merge_pairs(ctx, PRISM_U32, up, a, va, 10, b, vb, 10, vout,
                            out_short, 4));
  REFUSED(PRISM_BUFFER_TOO_SMALL, "keys_out holds 16 bytes",
          prism_merge_pairs(ctx, PRISM_U32, up, a, va, 3, b, vb, 2, small, vout,
                            8));

  /* Counts that overflow: each side's bytes, and na + nb. */
  REFUSED(PRISM_INVALID_ARGUMENT, "overflow",
          prism_merge_keys(ctx, PRISM_U32, up, a, SIZE_MAX / 2, b, SIZE_MAX / 2,
                           out));
  REFUSED(PRISM_INVALID_ARGUMENT, "overflow",
          prism_merge_keys(ctx, PRISM_U32, up, a, SIZE_MAX, b, 1, out));
  REFUSED(PRISM_INVALID_ARGUMENT, "overflow",
          prism_merge_keys(ctx, PRISM_U32, up, a, 1, b, SIZE_MAX / 4 + 1, out));
  REFUSED(PRISM_INVALID_ARGUMENT, "overflow",
          prism_merge_keys(ctx, PRISM_U64, up, a, SIZE_MAX / 16 + 1, b,
                           SIZE_MAX / 16 + 1, out));
  REFUSED(PRISM_INVALID_ARGUMENT, "overflow",
          prism_merge_keys(ctx, PRISM_U32, up, a, SIZE_MAX / 8, b,
                           SIZE_MAX / 8 + 2, out));
  /* Just no overflow: then the buffers are too small. */
  REFUSED(PRISM_BUFFER_TOO_SMALL, "a holds 400 bytes",
          prism_merge_keys(ctx, PRISM_U32, up, a, SIZE_MAX / 8, b,
                           SIZE_MAX / 8 + 1, out));
  /* 4-byte keys that fit, 8-byte values that do not. */
  REFUSED(PRISM_INVALID_ARGUMENT, "overflow",
          prism_merge_pairs(ctx, PRISM_U32, up, a, va, SIZE_MAX / 8 + 1, b, vb,
                            0, out, vout, 8));
  REFUSED(PRISM_INVALID_ARGUMENT, "overflow",
          prism_merge_pairs(ctx, PRISM_F32, up, a, va, SIZE_MAX / 16 + 1, b, vb,
                            SIZE_MAX / 16 + 1, out, vout, 8));

  /* Misaligned views. */
  REFUSED(PRISM_INVALID_ARGUMENT, "b is a view at byte 2",
          prism_merge_keys(ctx, PRISM_U32, up, a, 10, odd2, 10, out));
  REFUSED(PRISM_INVALID_ARGUMENT, "a is a view at byte 4",
          prism_merge_keys(ctx, PRISM_U64, up, odd4, 10, b, 10, out));
  REFUSED(PRISM_INVALID_ARGUMENT, "values_b is a view at byte 4",
          prism_merge_pairs(ctx, PRISM_U32, up, a, va, 10, b, odd4, 10, out,
                            vout, 8));

  /* Outputs that overlap an input or each other. */
  REFUSED(PRISM_INVALID_ARGUMENT, "a and out",
          prism_merge_keys(ctx, PRISM_U32, up, a, 10, b, 10, a));
  REFUSED(PRISM_INVALID_ARGUMENT, "a and out",
          prism_merge_keys(ctx, PRISM_U32, up, a, 20, b, 10, in_a));
  REFUSED(PRISM_INVALID_ARGUMENT, "a and out",
          prism_merge_keys(ctx, PRISM_U32, up, in_a, 10, b, 10, a));
  REFUSED(PRISM_INVALID_ARGUMENT, "b and out",
          prism_merge_keys(ctx, PRISM_U32, up, a, 10, b, 10, b));
  REFUSED(PRISM_INVALID_ARGUMENT, "b and out",
          prism_merge_keys(ctx, PRISM_U32, up, b, 10, in_a, 10, a));
  REFUSED(PRISM_INVALID_ARGUMENT, "b and out",
          prism_merge_keys(ctx, PRISM_U32, up, b, 10, in_out, 10, out));
  REFUSED(PRISM_INVALID_ARGUMENT, "a and out",
          prism_merge_keys(ctx, PRISM_U32, up, a, 11, a, 10, in_a));
  REFUSED(PRISM_INVALID_ARGUMENT, "keys_a and keys_out",
          prism_merge_pairs(ctx, PRISM_U32, up, a, va, 20, b, vb, 10, in_a,
                            vout, 4));
  REFUSED(
      PRISM_INVALID_ARGUMENT, "keys_b and keys_out",
      prism_merge_pairs(ctx, PRISM_U32, up, a, va, 10, b, vb, 10, b, vout, 4));
  REFUSED(
      PRISM_INVALID_ARGUMENT, "values_a and keys_out",
      prism_merge_pairs(ctx, PRISM_U32, up, a, va, 10, b, vb, 10, va, vout, 4));
  REFUSED(
      PRISM_INVALID_ARGUMENT, "values_b and keys_out",
      prism_merge_pairs(ctx, PRISM_U64, up, a, va, 10, b, vb, 10, vb, vout, 8));
  REFUSED(
      PRISM_INVALID_ARGUMENT, "keys_a and values_out",
      prism_merge_pairs(ctx, PRISM_U32, up, a, va, 10, b, vb, 10, out, a, 4));
  REFUSED(
      PRISM_INVALID_ARGUMENT, "keys_b and values_out",
      prism_merge_pairs(ctx, PRISM_U32, up, a, va, 10, b, vb, 10, out, b, 4));
  REFUSED(
      PRISM_INVALID_ARGUMENT, "values_a and values_out",
      prism_merge_pairs(ctx, PRISM_U32, up, a, va, 10, b, vb, 10, out, va, 8));
  REFUSED(
      PRISM_INVALID_ARGUMENT, "values_b and values_out",
      prism_merge_pairs(ctx, PRISM_U32, up, a, va, 10, b, vb, 10, out, vb, 4));
  REFUSED(
      PRISM_INVALID_ARGUMENT, "keys_out and values_out",
      prism_merge_pairs(ctx, PRISM_U32, up, a, va, 10, b, vb, 10, out, out, 4));
  REFUSED(PRISM_INVALID_ARGUMENT, "keys_out and values_out",
          prism_merge_pairs(ctx, PRISM_U32, up, a, va, 10, b, vb, 10, out,
                            in_out, 4));

  /* Nothing was written by the refused calls. */
  prism_buffer *const written[] = {a, b, va, vb, out, vout, small};
  for (size_t w = 0; w < sizeof written / sizeof written[0]; w++) {
    unsigned char *bytes = harness_download(written[w]);
    check_poison(bytes, 0, prism_buffer_size(written[w]), "bad input",
                 "of an argument");
    free(bytes);
  }

  /* na = nb = 0 is a no-op, on empty buffers too; out stays untouched. */
  prism_buffer *empty = NULL;
  HARNESS_OK(ctx, prism_buffer_create(ctx, 0, &empty));
  HARNESS_OK(ctx, prism_merge_keys(ctx, PRISM_U32, up, a, 0, b, 0, out));
  HARNESS_OK(ctx, prism_merge_keys(ctx, PRISM_I64, PRISM_DESCENDING, empty, 0,
                                   empty, 0, empty));
  HARNESS_OK(ctx, prism_merge_pairs(ctx, PRISM_I64, up, a, va, 0, b, vb, 0, out,
                                    vout, 8));
  HARNESS_OK(ctx, prism_merge_pairs(ctx, PRISM_U32, up, empty, empty, 0, empty,
                                    empty, 0, empty, empty, 4));
  {
    unsigned char *bytes = harness_download(out);
    check_poison(bytes, 0, 800, "na = nb = 0", "of keys_out");
    free(bytes);
    bytes = harness_download(vout);
    check_poison(bytes, 0, 800, "na = nb = 0", "of values_out");
    free(bytes);
  }
  harness_assert_alive(ctx, "empty merges");

  prism_buffer_destroy(empty);
  prism_buffer_destroy(odd4);
  prism_buffer_destroy(odd2);
  prism_buffer_destroy(out_short);
  prism_buffer_destroy(in_out);
  prism_buffer_destroy(in_a);
  prism_buffer_destroy(foreign);
  prism_buffer_destroy(small);
  prism_buffer_destroy(vout);
  prism_buffer_destroy(out);
  prism_buffer_destroy(vb);
  prism_buffer_destroy(va);
  prism_buffer_destroy(b);
  prism_buffer_destroy(a);
  prism_context_destroy(other);
  prism_context_destroy(ctx);
}
