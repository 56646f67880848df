/* SPDX-License-Identifier: MIT */
/*
 * prism_topk against the reference (ref_topk: the first k columns of each
 * row after a stable sort, ties to the lowest column): every key type, both
 * orders, sorted (the same bits) and unsorted (the same set: each row's
 * (value, key) records compared after a sort on the host); every output
 * form (keys, column indices of 4 and 8 bytes, caller values of 4 and 8
 * bytes, each with and without keys; the caller's values are a hash of the
 * input index, so a value gathered from the wrong row or column shows);
 * rows from one key to millions of keys (both sides of the per-work-group
 * and device-wide paths), batches of rows, k from 1 to cols and at the
 * tile edges; keys as random bits (NaNs, infinities, signed zeros among
 * the floats), from tiny ranges, ties over the k-th key, float specials;
 * guard bytes after every output, every argument a view of one buffer,
 * inputs sharing memory; rows = 0 and the bad arguments.
 */
#include "harness.h"
#include "ref_sort.h"
#include "ref_topk.h"
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
#define KEY_TYPES (sizeof key_types / sizeof key_types[0])

static int is_float(prism_type type) {
  return type == PRISM_F32 || type == PRISM_F64;
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

/* ---- What a call asks for ------------------------------------------------ */

enum { V_NONE, V_INDICES, V_CALLER };

typedef struct out_mode {
  int keys;          /* keys_out asked */
  int values;        /* V_NONE, V_INDICES (values_in NULL) or V_CALLER */
  size_t value_size; /* 0 with V_NONE */
  const char *name;
} out_mode;

static const out_mode modes[] = {
    {1, V_NONE, 0, "keys"},
    {0, V_INDICES, 4, "4-byte indices"},
    {0, V_INDICES, 8, "8-byte indices"},
    {1, V_INDICES, 4, "keys + 4-byte indices"},
    {1, V_INDICES, 8, "keys + 8-byte indices"},
    {1, V_CALLER, 4, "keys + 4-byte values"},
    {1, V_CALLER, 8, "keys + 8-byte values"},
    {0, V_CALLER, 4, "4-byte values"},
    {0, V_CALLER, 8, "8-byte values"},
};
#define MODES (sizeof modes / sizeof modes[0])
/* The mode that shows the most: keys and the columns, 8 bytes. */
#define MODE_KEYS_INDICES8 4

typedef struct topk_case {
  prism_type type;
  int descending;
  int sorted;
  int mode;   /* index into modes */
  int views;  /* every argument a view of one buffer, poison between */
  int shared; /* values_in is keys_in (V_CALLER, value_size = key size) */
} topk_case;

/* ---- Keys ---------------------------------------------------------------- */

typedef enum key_pattern {
  KP_BITS,       /* random bits over the whole width; floats: NaNs of both
                    signs, infinities and signed zeros sprinkled in */
  KP_FEW,        /* values 0 to 3: the k-th key has many equals */
  KP_BOUNDARY,   /* about k / 2 better keys, half the row one key (-0.0 for
                    floats), worse keys else: ties run over the k-th key */
  KP_EQUAL,      /* one key everywhere */
  KP_ASCENDING,  /* sorted */
  KP_DESCENDING, /* reverse sorted */
  KP_SPECIAL,    /* floats: ordinary values with NaN, inf, +-0, denormals */
  KP_ZEROS_NANS, /* floats: only -NaN, +NaN, -0.0, +0.0 (several payloads) */
  KP_COUNT
} key_pattern;

static const char *pattern_name(key_pattern p) {
  static const char *const names[KP_COUNT] = {
      "bits",      "few",        "boundary", "equal",
      "ascending", "descending", "special",  "zeros-and-nans"};
  return names[p];
}

static int pattern_applies(key_pattern p, prism_type type) {
  return (p != KP_SPECIAL && p != KP_ZEROS_NANS) || is_float(type);
}

/* The patterns that apply to the type, in turn by salt. */
static key_pattern pick_pattern(prism_type type, size_t salt) {
  for (;;) {
    key_pattern p = (key_pattern)(salt++ % KP_COUNT);
    if (pattern_applies(p, type))
      return p;
  }
}

/* Float specials by their bits: NaNs of both signs (quiet 0 and 1,
 * signalling 2 and 3, the largest payload 4 and 5), infinities 6 and 7,
 * zeros 8 and 9. */
static const uint32_t specials_f32[] = {
    0x7fc00000u, 0xffc00000u, 0x7f800001u, 0xff800001u, 0x7fffffffu,
    0xffffffffu, 0x7f800000u, 0xff800000u, 0x00000000u, 0x80000000u};
static const uint64_t specials_f64[] = {
    0x7ff8000000000000ull, 0xfff8000000000000ull, 0x7ff0000000000001ull,
    0xfff0000000000001ull, 0x7fffffffffffffffull, 0xffffffffffffffffull,
    0x7ff0000000000000ull, 0xfff0000000000000ull, 0x0000000000000000ull,
    0x8000000000000000ull};
#define SPECIALS (sizeof specials_f32 / sizeof specials_f32[0])

static uint64_t special_bits(prism_type type, size_t i) {
  return type == PRISM_F32 ? specials_f32[i] : specials_f64[i];
}

/* The bits of the integer v as a key of type. */
static uint64_t key_of_int(prism_type type, int v) {
  float f = (float)v;
  double d = (double)v;
  uint32_t b32;
  uint64_t b64;
  switch (type) {
  case PRISM_F32:
    memcpy(&b32, &f, 4);
    return b32;
  case PRISM_F64:
    memcpy(&b64, &d, 8);
    return b64;
  case PRISM_U32:
  case PRISM_I32:
    return (uint32_t)(int32_t)v;
  default:
    return (uint64_t)(int64_t)v;
  }
}

/* KP_BOUNDARY's three keys, best first in the case's order. */
static void boundary_keys(prism_type type, int descending, uint64_t out[3]) {
  if (is_float(type)) {
    const uint64_t minus_zero = type == PRISM_F32 ? 0x80000000u : 1ull << 63;
    out[0] = descending ? 0 : key_of_int(type, -1);
    out[1] = minus_zero;
    out[2] = descending ? key_of_int(type, -1) : 0;
  } else {
    out[0] = key_of_int(type, descending ? 3 : 1);
    out[1] = key_of_int(type, 2);
    out[2] = key_of_int(type, descending ? 1 : 3);
  }
}

/* rows x cols keys of the pattern (k and the order shape KP_BOUNDARY). */
static unsigned char *make_keys(prism_type type, key_pattern p, uint64_t seed,
                                size_t rows, size_t cols, size_t k,
                                int descending) {
  const size_t ks = prism_type_size(type), n = rows * cols;
  unsigned char *keys = harness_malloc(n * ks);
  static const vec_pattern shared[KP_COUNT] = {[KP_EQUAL] = VEC_EQUAL,
                                               [KP_ASCENDING] = VEC_ASCENDING,
                                               [KP_DESCENDING] = VEC_DESCENDING,
                                               [KP_SPECIAL] = VEC_SPECIAL};
  if (p == KP_EQUAL || p == KP_ASCENDING || p == KP_DESCENDING ||
      p == KP_SPECIAL) {
    vec_fill(type, shared[p], seed, keys, n);
    return keys;
  }
  uint64_t state = seed * 0x9E3779B97F4A7C15ull + (uint64_t)p, three[3];
  boundary_keys(type, descending, three);
  for (size_t i = 0; i < n; i++) {
    const uint64_t r = vec_next(&state);
    uint64_t bits;
    switch (p) {
    case KP_FEW:
      bits = key_of_int(type, (int)(r % 4));
      break;
    case KP_BOUNDARY:
      bits = r % cols < k / 2 ? three[0] : (r >> 40) & 1 ? three[1] : three[2];
      break;
    case KP_ZEROS_NANS:
      /* Mostly the zeros and quiet NaNs; now and then another NaN. */
      if (r % 16 == 0)
        bits = special_bits(type, 2 + (size_t)(r >> 8) % 4);
      else
        bits = special_bits(type, r % 4 < 2 ? 8 + (r >> 8) % 2 : (r >> 8) % 2);
      break;
    default: /* KP_BITS */
      bits = r;
      if (is_float(type) && r % 32 == 0)
        bits = special_bits(type, (size_t)(r >> 8) % SPECIALS);
      break;
    }
    put_bits(keys, ks, i, bits);
  }
  return keys;
}

/* The caller's value of input element g: a hash of g, one to one at 4 and
 * 8 bytes, so that a value from another row or column shows. */
static uint64_t value_of(size_t g) {
  return (uint64_t)g * 0x9E3779B97F4A7C15ull + 0x0123456789ABCDEFull;
}

/* ---- One call and its check ---------------------------------------------- */

enum { R_KIN, R_VIN, R_KOUT, R_VOUT, R_COUNT };

static const char *const region_names[R_COUNT] = {"keys_in", "values_in",
                                                  "keys_out", "values_out"};

static void describe(char *what, size_t size, const topk_case *c, size_t rows,
                     size_t cols, size_t k, const char *how) {
  snprintf(
      what, size, "topk %s %s %s, %s, rows x cols = %zu x %zu, k = %zu, %s%s%s",
      prism_type_name(c->type), c->descending ? "descending" : "ascending",
      c->sorted ? "sorted" : "unsorted", modes[c->mode].name, rows, cols, k,
      how, c->views ? ", views" : "", c->shared ? ", values_in = keys_in" : "");
}

static void expect_poison(const unsigned char *bytes, size_t from, size_t to,
                          const char *what, const char *after) {
  for (size_t i = from; i < to; i++)
    cr_assert_eq(bytes[i], HARNESS_POISON, "%s: byte %zu %s was written", what,
                 i - from, after);
}

/* A key for messages: its value and its bits. */
static void format_key(prism_type type, uint64_t bits, char *buf, size_t size) {
  char value[48];
  ref_format(type, &bits, value, sizeof value); /* little-endian */
  snprintf(buf, size, "%s (bits %#llx)", value, (unsigned long long)bits);
}

/* Sorted: every output element's bits in rank order. */
static void expect_sorted(const topk_case *c, size_t rows, size_t cols,
                          size_t k, const unsigned char *keys,
                          const uint64_t *want_cols, const unsigned char *got_k,
                          const unsigned char *want_k,
                          const unsigned char *got_v,
                          const unsigned char *want_v, const char *what) {
  const size_t ks = prism_type_size(c->type), vs = modes[c->mode].value_size;
  const size_t n = rows * k;
  if ((!got_k || memcmp(got_k, want_k, n * ks) == 0) &&
      (!got_v || memcmp(got_v, want_v, n * vs) == 0))
    return;
  size_t i = 0;
  while ((!got_k || get_bits(got_k, ks, i) == get_bits(want_k, ks, i)) &&
         (!got_v || get_bits(got_v, vs, i) == get_bits(want_v, vs, i)))
    i++;
  const size_t r = i / k, rank = i % k, col = (size_t)want_cols[i];
  char g[96] = "-", w[96];
  format_key(c->type, get_bits(keys, ks, r * cols + col), w, sizeof w);
  if (got_k)
    format_key(c->type, get_bits(got_k, ks, i), g, sizeof g);
  char gv[192] = "", wv[64] = "";
  if (got_v) {
    const uint64_t v = get_bits(got_v, vs, i);
    if (modes[c->mode].values == V_INDICES && v < cols) {
      char at[96];
      format_key(c->type, get_bits(keys, ks, r * cols + (size_t)v), at,
                 sizeof at);
      snprintf(gv, sizeof gv, ", value %llu (column %llu holds %s)",
               (unsigned long long)v, (unsigned long long)v, at);
    } else {
      snprintf(gv, sizeof gv, ", value %#llx", (unsigned long long)v);
    }
    snprintf(wv, sizeof wv, ", value %#llx",
             (unsigned long long)get_bits(want_v, vs, i));
  }
  cr_assert_fail("%s: row %zu rank %zu: got key %s%s; want key %s (column "
                 "%zu)%s",
                 what, r, rank, g, gv, w, col, wv);
}

/* An output element as a record: what it carries besides its key (value
 * or column; 0 when there is none), and its key's bits (0 when keys_out
 * was not asked). */
typedef struct record {
  uint64_t tag, key;
} record;

static int cmp_record(const void *a, const void *b) {
  const record *x = a, *y = b;
  if (x->tag != y->tag)
    return x->tag < y->tag ? -1 : 1;
  return (x->key > y->key) - (x->key < y->key);
}

static void to_records(const unsigned char *k, size_t ks,
                       const unsigned char *v, size_t vs, size_t at, size_t n,
                       record *out) {
  for (size_t i = 0; i < n; i++) {
    out[i].tag = v ? get_bits(v, vs, at + i) : 0;
    out[i].key = k ? get_bits(k, ks, at + i) : 0;
  }
  qsort(out, n, sizeof *out, cmp_record);
}

/* Unsorted: each row's outputs, as (value, key) records, are the same set
 * as the reference's. */
static void expect_same_set(const topk_case *c, size_t rows, size_t k,
                            const unsigned char *got_k,
                            const unsigned char *want_k,
                            const unsigned char *got_v,
                            const unsigned char *want_v, const char *what) {
  const size_t ks = prism_type_size(c->type), vs = modes[c->mode].value_size;
  record *g = harness_malloc(k * sizeof *g), *w = harness_malloc(k * sizeof *w);
  for (size_t r = 0; r < rows; r++) {
    to_records(got_k, ks, got_v, vs, r * k, k, g);
    to_records(want_k, ks, want_v, vs, r * k, k, w);
    size_t i = 0;
    while (i < k && g[i].tag == w[i].tag && g[i].key == w[i].key)
      i++;
    if (i == k)
      continue;
    char gs[96] = "-", ws[96] = "-";
    if (got_k) {
      format_key(c->type, g[i].key, gs, sizeof gs);
      format_key(c->type, w[i].key, ws, sizeof ws);
    }
    cr_assert_fail("%s: row %zu is not the reference's set: ordered by "
                   "(value, key), element %zu is (%#llx, %s), want (%#llx, "
                   "%s)",
                   what, r, i, (unsigned long long)g[i].tag, gs,
                   (unsigned long long)w[i].tag, ws);
  }
  free(w);
  free(g);
}

static prism_status call_topk(prism_context *ctx, const topk_case *c,
                              prism_buffer *const *buf, size_t rows,
                              size_t cols, size_t k) {
  const out_mode *m = &modes[c->mode];
  prism_topk_options o, *options = &o;
  prism_topk_options_init(&o);
  o.order = c->descending ? PRISM_DESCENDING : PRISM_ASCENDING;
  o.sorted = c->sorted ? 1 + (int)(k % 3) : 0; /* any nonzero sorts */
  /* The defaults, now and then as NULL options. */
  if (c->descending && o.sorted == 1)
    options = NULL;
  return prism_topk(ctx, c->type, buf[R_KIN], buf[R_VIN], rows, cols, k,
                    m->keys ? buf[R_KOUT] : NULL,
                    m->values ? buf[R_VOUT] : NULL, m->value_size, options);
}

/* Top-k of keys (rows x cols) on the device, checked against ref_topk:
 * the outputs (exact when sorted, as sets when not), the inputs unchanged,
 * every guard byte still poison. */
static void check_case(prism_context *ctx, const topk_case *c,
                       const unsigned char *keys, size_t rows, size_t cols,
                       size_t k, const char *how) {
  const out_mode *m = &modes[c->mode];
  const size_t ks = prism_type_size(c->type), vs = m->value_size;
  const size_t n_in = rows * cols, n_out = rows * k;
  char what[320];
  describe(what, sizeof what, c, rows, cols, k, how);
  cr_assert(!c->shared || (m->values == V_CALLER && vs == ks), "%s: bad case",
            what);

  unsigned char *values = NULL;
  if (m->values == V_CALLER && !c->shared) {
    values = harness_malloc(n_in * vs);
    for (size_t i = 0; i < n_in; i++)
      put_bits(values, vs, i, value_of(i));
  }
  const unsigned char *values_host = c->shared ? keys : values;
  uint64_t *want_cols = harness_malloc(n_out * sizeof *want_cols);
  cr_assert_eq(ref_topk(c->type, keys, rows, cols, k, c->descending, want_cols),
               0, "%s: ref_topk is out of host memory", what);
  unsigned char *want_k = m->keys ? harness_malloc(n_out * ks) : NULL;
  unsigned char *want_v = m->values ? harness_malloc(n_out * vs) : NULL;
  for (size_t i = 0; i < n_out; i++) {
    const size_t g = i / k * cols + (size_t)want_cols[i];
    if (want_k)
      put_bits(want_k, ks, i, get_bits(keys, ks, g));
    if (m->values == V_INDICES)
      put_bits(want_v, vs, i, want_cols[i]);
    else if (want_v)
      put_bits(want_v, vs, i, get_bits(values_host, vs, g));
  }

  /* The regions, what the inputs hold and how long each is. */
  const unsigned char *init[R_COUNT] = {keys, values, NULL, NULL};
  const size_t len[R_COUNT] = {n_in * ks, n_in * vs, n_out * ks, n_out * vs};
  const int used[R_COUNT] = {1, m->values == V_CALLER && !c->shared, m->keys,
                             m->values != V_NONE};
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
  prism_buffer *call_buf[R_COUNT] = {buf[R_KIN], buf[R_VIN], buf[R_KOUT],
                                     buf[R_VOUT]};
  if (c->shared)
    call_buf[R_VIN] = buf[R_KIN];

  prism_status st = call_topk(ctx, c, call_buf, rows, cols, k);
  cr_assert_eq(st, PRISM_OK, "%s -> %s: %s", what, prism_status_name(st),
               prism_context_last_error(ctx));

  unsigned char *whole = c->views ? harness_download(parent) : NULL;
  unsigned char *got[R_COUNT] = {NULL};
  size_t end = 0;
  for (int r = 0; r < R_COUNT; r++) {
    if (!used[r])
      continue;
    got[r] = c->views ? whole + at[r] : harness_download(buf[r]);
    char after[64];
    snprintf(after, sizeof after, "past the end of %s", region_names[r]);
    if (c->views) {
      expect_poison(whole, end, at[r], what, "before a view");
      end = at[r] + len[r];
    } else {
      expect_poison(got[r], len[r], len[r] + GUARD_BYTES, what, after);
    }
    if (init[r])
      cr_assert(memcmp(got[r], init[r], len[r]) == 0, "%s: %s was modified",
                what, region_names[r]);
  }
  if (c->views)
    expect_poison(whole, end, total, what, "past the last view");
  if (c->sorted)
    expect_sorted(c, rows, cols, k, keys, want_cols, got[R_KOUT], want_k,
                  got[R_VOUT], want_v, what);
  else
    expect_same_set(c, rows, k, got[R_KOUT], want_k, got[R_VOUT], want_v, what);

  for (int r = 0; r < R_COUNT; r++) {
    if (!c->views)
      free(got[r]);
    prism_buffer_destroy(buf[r]);
  }
  free(whole);
  prism_buffer_destroy(parent);
  free(want_v);
  free(want_k);
  free(want_cols);
  free(values);
}

/* The pattern's keys for the shape, then the check. */
static void check_pattern(prism_context *ctx, const topk_case *c, key_pattern p,
                          size_t rows, size_t cols, size_t k) {
  if (rows * cols > harness_max_n())
    return;
  const uint64_t seed =
      ((rows * 131 + cols) * 31 + k) * 17 + (uint64_t)p + (uint64_t)c->type * 7;
  unsigned char *keys =
      make_keys(c->type, p, seed, rows, cols, k, c->descending);
  check_case(ctx, c, keys, rows, cols, k, pattern_name(p));
  free(keys);
}

/* ---- Every type, order, shape -------------------------------------------- */

/* One long row: cols on both sides of every warp, work-group and row tile
 * size either backend uses, to past a million. */
static const size_t row_lengths[] = {1,    2,    31,   32,   33,   255,
                                     256,  257,  1023, 1024, 1025, 4095,
                                     4096, 4097, 8191, 8193, 65537};

typedef struct shape {
  size_t rows, cols, k;
} shape;

/* Batches: several rows, short and long, rows of one key. */
static const shape batches[] = {{3, 1000, 10}, {3, 1000, 1000}, {1000, 7, 3},
                                {1000, 7, 7},  {257, 1024, 1},  {257, 1024, 64},
                                {16, 5000, 2}, {16, 5000, 600}, {500, 1, 1},
                                {64, 33, 32},  {2, 4097, 4096}};

static void type_suite(prism_type type, int sorted) {
  prism_context *ctx = harness_context();
  harness_require_type(ctx, type);
  size_t salt = (size_t)type * 5 + (size_t)sorted;
  for (int desc = 0; desc < 2; desc++) {
    for (size_t s = 0; s < sizeof row_lengths / sizeof row_lengths[0]; s++) {
      const size_t cols = row_lengths[s];
      /* k: 1, 2, all of it, and one between (around 32, 64, 256, 1024). */
      const size_t mid[] = {33, 64, 255, 1024};
      const size_t ks[] = {1, 2, cols, mid[s % 4] < cols ? mid[s % 4] : 0};
      for (size_t j = 0; j < 4; j++) {
        if (ks[j] == 0 || ks[j] > cols || (j == 1 && cols <= 2) ||
            (j == 2 && cols == 1) || (cols > 10000 && j == 2 && desc))
          continue;
        const topk_case c = {type, desc, sorted, (int)(salt % MODES), 0, 0};
        check_pattern(ctx, &c, pick_pattern(type, salt), 1, cols, ks[j]);
        salt++;
      }
    }
    for (size_t b = 0; b < sizeof batches / sizeof batches[0]; b++) {
      const topk_case c = {type, desc, sorted, (int)(salt % MODES), 0, 0};
      check_pattern(ctx, &c, pick_pattern(type, salt), batches[b].rows,
                    batches[b].cols, batches[b].k);
      salt++;
    }
  }
  prism_context_destroy(ctx);
}

#define TYPE_TESTS(T)                                                          \
  Test(topk, T##_sorted) {                                                     \
    type_suite(PRISM_##T, 1);                                                  \
  }                                                                            \
  Test(topk, T##_unsorted) {                                                   \
    type_suite(PRISM_##T, 0);                                                  \
  }

TYPE_TESTS(U32)
TYPE_TESTS(I32)
TYPE_TESTS(F32)
TYPE_TESTS(U64)
TYPE_TESTS(I64)
TYPE_TESTS(F64)

/* Every output form on every type, a short row and a long one. */
Test(topk, every_output) {
  prism_context *ctx = harness_context();
  const shape shapes[] = {{1, 300, 17}, {2, 20000, 100}};
  for (size_t t = 0; t < KEY_TYPES; t++) {
    if (!prism_context_supports(ctx, key_types[t]))
      continue;
    for (size_t m = 0; m < MODES; m++)
      for (size_t s = 0; s < 2; s++) {
        const topk_case c = {key_types[t],
                             (int)(m + t) % 2,
                             (int)(m + s + t) % 3 != 0,
                             (int)m,
                             0,
                             0};
        check_pattern(ctx, &c, KP_BITS, shapes[s].rows, shapes[s].cols,
                      shapes[s].k);
      }
  }
  prism_context_destroy(ctx);
}

/* ---- Ties ---------------------------------------------------------------- */

/* Many keys equal to the k-th: those with the lowest columns are in. */
Test(topk, ties_go_to_the_lowest_column) {
  prism_context *ctx = harness_context();
  const shape shapes[] = {{1, 100, 1},     {1, 1000, 333}, {1, 4097, 2},
                          {1, 4097, 1400}, {1, 70000, 1},  {1, 70000, 5000},
                          {8, 3000, 999},  {40, 200, 199}, {3, 20000, 10000},
                          {1, 300000, 7}};
  const key_pattern ties[] = {KP_FEW, KP_BOUNDARY, KP_EQUAL};
  size_t salt = 0;
  for (size_t t = 0; t < KEY_TYPES; t++) {
    if (!prism_context_supports(ctx, key_types[t]))
      continue;
    for (size_t p = 0; p < 3; p++)
      for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++, salt++) {
        if (shapes[s].cols > 100000 && (t + p) % 3)
          continue;
        const topk_case c = {key_types[t],
                             (int)salt % 2,
                             (int)(salt / 2) % 2,
                             MODE_KEYS_INDICES8,
                             0,
                             0};
        check_pattern(ctx, &c, ties[p], shapes[s].rows, shapes[s].cols,
                      shapes[s].k);
      }
  }
  prism_context_destroy(ctx);
}

/* All keys equal: the first k columns, in column order. */
Test(topk, all_keys_equal) {
  prism_context *ctx = harness_context();
  const shape shapes[] = {{1, 1, 1},
                          {1, 257, 100},
                          {5, 3000, 3000},
                          {1, 9000, 4097},
                          {2, 70001, 3}};
  for (size_t t = 0; t < KEY_TYPES; t++) {
    if (!prism_context_supports(ctx, key_types[t]))
      continue;
    const size_t ks = prism_type_size(key_types[t]);
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
      const size_t rows = shapes[s].rows, cols = shapes[s].cols,
                   n = rows * cols;
      unsigned char *keys = harness_malloc(n * ks);
      /* -0.0 for floats: neither all zero bits nor all ones. */
      for (size_t i = 0; i < n; i++)
        put_bits(keys, ks, i, ks == 4 ? 0x80000000u : 0x8000000000000000ull);
      const topk_case c = {key_types[t],
                           (int)(s + t) % 2,
                           1,
                           (int)(s % 2 ? MODE_KEYS_INDICES8 : 3),
                           0,
                           0};
      check_case(ctx, &c, keys, rows, cols, shapes[s].k, "all keys equal");
      /* The reference itself: columns 0 to k - 1 in every row. */
      uint64_t *cols_out = harness_malloc(rows * shapes[s].k * 8);
      cr_assert_eq(ref_topk(key_types[t], keys, rows, cols, shapes[s].k,
                            c.descending, cols_out),
                   0);
      for (size_t i = 0; i < rows * shapes[s].k; i++)
        cr_assert_eq(cols_out[i], i % shapes[s].k, "ref_topk: ties");
      free(cols_out);
      free(keys);
    }
  }
  prism_context_destroy(ctx);
}

/* ---- Floats in total order ----------------------------------------------- */

Test(topk, float_total_order) {
  prism_context *ctx = harness_context();
  const shape shapes[] = {{1, 64, 1},      {1, 64, 30},     {1, 2000, 7},
                          {1, 2000, 1000}, {1, 50000, 1},   {1, 50000, 25000},
                          {9, 777, 40},    {3, 12289, 4096}};
  const key_pattern pats[] = {KP_ZEROS_NANS, KP_SPECIAL, KP_BITS};
  for (size_t t = 2; t < KEY_TYPES; t += 3) {
    if (!prism_context_supports(ctx, key_types[t]))
      continue;
    for (int desc = 0; desc < 2; desc++)
      for (size_t p = 0; p < 3; p++)
        for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
          const topk_case c = {key_types[t],
                               desc,
                               (int)(s + p) % 2 == 0,
                               (int)(s + p) % 2 ? 3 : MODE_KEYS_INDICES8,
                               0,
                               0};
          check_pattern(ctx, &c, pats[p], shapes[s].rows, shapes[s].cols,
                        shapes[s].k);
        }
  }
  prism_context_destroy(ctx);
}

/* A row of the ranked float specials, each once, in shuffled columns: the
 * rank order is known without the reference. */
Test(topk, float_ranks) {
  prism_context *ctx = harness_context();
  /* Ascending total order by bits. */
  static const uint64_t ranked_f64[] = {
      0xffffffffffffffffull, 0xfff8000000000000ull, 0xfff0000000000001ull,
      0xfff0000000000000ull, 0xbff0000000000000ull, 0x8000000000000001ull,
      0x8000000000000000ull, 0x0000000000000000ull, 0x0000000000000001ull,
      0x3ff0000000000000ull, 0x7ff0000000000000ull, 0x7ff0000000000001ull,
      0x7ff8000000000000ull, 0x7fffffffffffffffull};
  static const uint32_t ranked_f32[] = {
      0xffffffffu, 0xffc00000u, 0xff800001u, 0xff800000u, 0xbf800000u,
      0x80000001u, 0x80000000u, 0x00000000u, 0x00000001u, 0x3f800000u,
      0x7f800000u, 0x7f800001u, 0x7fc00000u, 0x7fffffffu};
  const size_t ranks = sizeof ranked_f32 / sizeof ranked_f32[0];
  for (size_t t = 2; t < KEY_TYPES; t += 3) {
    const prism_type type = key_types[t];
    if (!prism_context_supports(ctx, type))
      continue;
    const size_t ks = prism_type_size(type);
    unsigned char keys[sizeof ranked_f64];
    size_t where[sizeof ranked_f32 / sizeof ranked_f32[0]]; /* rank's column */
    for (size_t i = 0; i < ranks; i++)
      where[i] = (i * 5 + 3) % ranks; /* 5 is prime to 14 */
    for (size_t i = 0; i < ranks; i++)
      put_bits(keys, ks, where[i], ks == 4 ? ranked_f32[i] : ranked_f64[i]);
    for (int desc = 0; desc < 2; desc++) {
      prism_buffer *in = harness_upload(ctx, keys, ranks * ks);
      prism_buffer *out = harness_poisoned(ctx, ranks * ks + GUARD_BYTES);
      prism_buffer *idx = harness_poisoned(ctx, ranks * 4 + GUARD_BYTES);
      prism_topk_options o;
      prism_topk_options_init(&o);
      o.order = desc ? PRISM_DESCENDING : PRISM_ASCENDING;
      HARNESS_OK(ctx, prism_topk(ctx, type, in, NULL, 1, ranks, ranks, out, idx,
                                 4, &o));
      unsigned char *got = harness_download(out);
      unsigned char *gi = harness_download(idx);
      for (size_t i = 0; i < ranks; i++) {
        const size_t rank = desc ? ranks - 1 - i : i;
        const uint64_t want = ks == 4 ? ranked_f32[rank] : ranked_f64[rank];
        cr_assert_eq(get_bits(got, ks, i), want,
                     "topk %s %s of the float specials: output %zu has bits "
                     "%#llx, want %#llx",
                     prism_type_name(type), desc ? "descending" : "ascending",
                     i, (unsigned long long)get_bits(got, ks, i),
                     (unsigned long long)want);
        cr_assert_eq(get_bits(gi, 4, i), where[rank],
                     "topk %s of the float specials: index %zu is %llu, want "
                     "%zu",
                     prism_type_name(type), i,
                     (unsigned long long)get_bits(gi, 4, i), where[rank]);
      }
      expect_poison(got, ranks * ks, ranks * ks + GUARD_BYTES, "float specials",
                    "past keys_out");
      expect_poison(gi, ranks * 4, ranks * 4 + GUARD_BYTES, "float specials",
                    "past values_out");
      free(gi);
      free(got);
      prism_buffer_destroy(idx);
      prism_buffer_destroy(out);
      prism_buffer_destroy(in);
    }
  }
  prism_context_destroy(ctx);
}

/* ---- k and row lengths at the edges -------------------------------------- */

/* k around warp, work-group and tile sizes, on a row of each path. */
Test(topk, k_edges) {
  prism_context *ctx = harness_context();
  static const size_t ks[] = {31,   32,   33,   63,   64,   65,   255,  256,
                              257,  511,  512,  513,  1023, 1024, 1025, 2047,
                              2048, 2049, 4095, 4096, 4097, 8191, 8192, 8193};
  const shape rows_of[] = {{2, 4097, 0}, {1, 100003, 0}};
  size_t salt = 0;
  for (size_t r = 0; r < 2; r++)
    for (size_t i = 0; i < sizeof ks / sizeof ks[0]; i++, salt++) {
      if (ks[i] > rows_of[r].cols)
        continue;
      const prism_type type = key_types[salt % KEY_TYPES];
      if (!prism_context_supports(ctx, type))
        continue;
      const topk_case c = {type,
                           (int)salt % 2,
                           (int)(salt / 2) % 2 == 0,
                           (int)((salt * 5) % MODES),
                           0,
                           0};
      check_pattern(ctx, &c, salt % 3 ? KP_BITS : KP_FEW, rows_of[r].rows,
                    rows_of[r].cols, ks[i]);
    }
  prism_context_destroy(ctx);
}

/* Row lengths at the edges of the per-work-group rows (a few hundred to a
 * few thousand keys, backend-dependent) and past them. */
Test(topk, row_tile_edges) {
  prism_context *ctx = harness_context();
  static const size_t lengths[] = {
      127,  128,  129,  511,  512,  513,  767,  768,  769,   1535,
      1536, 1537, 1791, 1792, 1793, 2047, 2048, 2049, 3071,  3072,
      3073, 3839, 3840, 3841, 6143, 6144, 6145, 8192, 12289, 16385};
  size_t salt = 0;
  for (size_t i = 0; i < sizeof lengths / sizeof lengths[0]; i++)
    for (size_t j = 0; j < 2; j++, salt++) {
      const size_t cols = lengths[i];
      const size_t k = j ? cols / 2 + 1 : 1 + salt % 40;
      const prism_type type = key_types[salt % KEY_TYPES];
      if (!prism_context_supports(ctx, type))
        continue;
      const topk_case c = {type,
                           (int)(salt / 3) % 2,
                           (int)salt % 2,
                           (int)((salt * 7) % MODES),
                           0,
                           0};
      check_pattern(ctx, &c, pick_pattern(type, salt), 3, cols, k);
    }
  prism_context_destroy(ctx);
}

/* Long rows, alone and several at once: the device-wide path. */
Test(topk, long_rows) {
  prism_context *ctx = harness_context();
  const struct {
    prism_type type;
    shape s;
    key_pattern p;
  } cases[] = {
      {PRISM_U32, {1, (size_t)1 << 20, 1}, KP_BITS},
      {PRISM_F32, {1, (size_t)1 << 20, 1000}, KP_BITS},
      {PRISM_I64, {1, (size_t)1 << 20, 4097}, KP_FEW},
      {PRISM_F64, {1, (size_t)1 << 20, 300000}, KP_SPECIAL},
      {PRISM_U64, {1, ((size_t)1 << 20) + 1, 2}, KP_BOUNDARY},
      {PRISM_F32, {1, 3000017, 100}, KP_BITS},
      {PRISM_U32, {1, 3000017, 65536}, KP_FEW},
      {PRISM_F64, {1, 3000017, 1}, KP_BITS},
      {PRISM_I32, {4, 300007, 1000}, KP_BITS},
      {PRISM_F32, {3, 200003, 100000}, KP_BOUNDARY},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    if (!prism_context_supports(ctx, cases[i].type))
      continue;
    const topk_case c = {cases[i].type,
                         (int)i % 2,
                         (int)(i % 3) != 1,
                         (int)((i * 4 + 3) % MODES),
                         0,
                         0};
    check_pattern(ctx, &c, cases[i].p, cases[i].s.rows, cases[i].s.cols,
                  cases[i].s.k);
  }
  prism_context_destroy(ctx);
}

/* ---- Views and shared inputs --------------------------------------------- */

/* Every argument a view of one buffer, poison before, between and after:
 * nothing outside the outputs may change. */
Test(topk, views) {
  prism_context *ctx = harness_context();
  const shape shapes[] = {{1, 1, 1}, {5, 333, 20}, {1, 10007, 1000}};
  size_t salt = 0;
  for (size_t m = 0; m < MODES; m++)
    for (size_t s = 0; s < 3; s++, salt++) {
      const prism_type type = key_types[salt % KEY_TYPES];
      if (!prism_context_supports(ctx, type))
        continue;
      const topk_case c = {type, (int)salt % 2, (int)(salt / 2) % 2, (int)m, 1,
                           0};
      check_pattern(ctx, &c, KP_BITS, shapes[s].rows, shapes[s].cols,
                    shapes[s].k);
    }
  prism_context_destroy(ctx);
}

/* The inputs may share memory: values_in is keys_in, each key its own
 * value. */
Test(topk, shared_inputs) {
  prism_context *ctx = harness_context();
  const shape shapes[] = {{1, 100, 9}, {7, 2000, 2000}, {1, 40000, 77}};
  for (size_t t = 0; t < KEY_TYPES; t++) {
    if (!prism_context_supports(ctx, key_types[t]))
      continue;
    const int mode = prism_type_size(key_types[t]) == 4 ? 5 : 6;
    for (size_t s = 0; s < 3; s++) {
      const topk_case c = {key_types[t],    (int)(s + t) % 2,
                           (int)s % 2 == 0, s == 1 ? mode + 2 : mode,
                           (int)s == 2,     1};
      check_pattern(ctx, &c, KP_BITS, shapes[s].rows, shapes[s].cols,
                    shapes[s].k);
    }
  }
  prism_context_destroy(ctx);
}

/* ---- No-ops and bad arguments -------------------------------------------- */

/* The call fails with want and a message holding needle; the context still
 * works. */
#define REFUSED(want, needle, call)                                            \
  do {                                                                         \
    HARNESS_EXPECT(ctx, want, needle, call);                                   \
    harness_assert_alive(ctx, #call);                                          \
  } while (0)

#define TOPK(...) prism_topk(ctx, __VA_ARGS__)

static prism_buffer *view(prism_context *ctx, prism_buffer *parent,
                          size_t offset, size_t bytes) {
  prism_buffer *v = NULL;
  HARNESS_OK(ctx, prism_buffer_view(parent, offset, bytes, &v));
  return v;
}

/* rows = 0: OK, nothing written, whatever the outputs' size (the other
 * arguments are checked all the same). */
Test(topk, rows_zero_is_a_no_op) {
  prism_context *ctx = harness_context();
  const prism_type U = PRISM_U32;
  prism_buffer *kin = harness_poisoned(ctx, 400),
               *vin = harness_poisoned(ctx, 400);
  prism_buffer *kout = harness_poisoned(ctx, 400),
               *vout = harness_poisoned(ctx, 400);
  prism_buffer *empty = NULL;
  HARNESS_OK(ctx, prism_buffer_create(ctx, 0, &empty));
  prism_topk_options up;
  prism_topk_options_init(&up);
  up.order = PRISM_ASCENDING;
  up.sorted = 0;
  HARNESS_OK(ctx, TOPK(U, kin, NULL, 0, 10, 3, kout, NULL, 0, NULL));
  HARNESS_OK(ctx, TOPK(PRISM_F64, kin, vin, 0, 100, 100, kout, vout, 8, &up));
  HARNESS_OK(ctx, TOPK(PRISM_I32, kin, NULL, 0, 1, 1, NULL, vout, 4, NULL));
  HARNESS_OK(ctx, TOPK(U, empty, NULL, 0, 5, 5, empty, empty, 8, NULL));
  HARNESS_OK(
      ctx, TOPK(PRISM_U64, empty, empty, 0, 1u << 20, 7, empty, empty, 4, &up));
  /* The arguments are checked before the no-op. */
  HARNESS_EXPECT(ctx, PRISM_INVALID_ARGUMENT, "k is 0",
                 TOPK(U, kin, NULL, 0, 10, 0, kout, NULL, 0, NULL));
  HARNESS_EXPECT(ctx, PRISM_INVALID_ARGUMENT, "more than cols",
                 TOPK(U, kin, NULL, 0, 10, 11, kout, NULL, 0, NULL));
  HARNESS_EXPECT(ctx, PRISM_INVALID_ARGUMENT, "both NULL",
                 TOPK(U, kin, NULL, 0, 10, 1, NULL, NULL, 0, NULL));
  HARNESS_EXPECT(ctx, PRISM_NULL_POINTER, "keys_in is NULL",
                 TOPK(U, NULL, NULL, 0, 10, 1, kout, NULL, 0, NULL));
  prism_buffer *const untouched[] = {kin, vin, kout, vout};
  for (size_t i = 0; i < 4; i++) {
    unsigned char *got = harness_download(untouched[i]);
    expect_poison(got, 0, 400, "rows = 0", "of a buffer");
    free(got);
  }
  harness_assert_alive(ctx, "rows = 0");
  prism_buffer_destroy(empty);
  prism_buffer_destroy(vout);
  prism_buffer_destroy(kout);
  prism_buffer_destroy(vin);
  prism_buffer_destroy(kin);
  prism_context_destroy(ctx);
}

Test(topk, bad_input) {
  prism_context *ctx = harness_context(), *other = harness_context();
  const prism_type U = PRISM_U32;
  /* 100 u32 keys (50 u64) per 400-byte input; 10 rows x 10 cols, k = 5:
   * 50 outputs of 4 bytes (200 bytes), of 8 (400 bytes). */
  prism_buffer *kin = harness_poisoned(ctx, 400),
               *vin = harness_poisoned(ctx, 800);
  prism_buffer *kout = harness_poisoned(ctx, 400),
               *vout = harness_poisoned(ctx, 400);
  prism_buffer *small = harness_poisoned(ctx, 16);
  prism_buffer *foreign = harness_poisoned(other, 800);
  prism_buffer *big = harness_poisoned(ctx, 2048);
  /* Views of big: an input at 0, outputs over it or each other. */
  prism_buffer *in0 = view(ctx, big, 0, 400), *out8 = view(ctx, big, 392, 200);
  prism_buffer *out_a = view(ctx, big, 800, 200),
               *out_b = view(ctx, big, 992, 400);
  prism_buffer *odd = view(ctx, big, 2, 400), *odd4 = view(ctx, big, 1204, 400);
  prism_topk_options bad_order, unsorted;
  prism_topk_options_init(&bad_order);
  bad_order.order = (prism_order)2;
  prism_topk_options_init(&unsorted);
  unsorted.sorted = 0;

  /* NULL context and buffers; dead and foreign buffers. */
  HARNESS_EXPECT(
      NULL, PRISM_NULL_POINTER, "ctx",
      prism_topk(NULL, U, kin, NULL, 10, 10, 5, kout, NULL, 0, NULL));
  harness_assert_alive(ctx, "prism_topk(NULL, ...)");
  REFUSED(PRISM_NULL_POINTER, "keys_in is NULL",
          TOPK(U, NULL, NULL, 10, 10, 5, kout, NULL, 0, NULL));
  REFUSED(PRISM_INVALID_ARGUMENT, "keys_out and values_out are both NULL",
          TOPK(U, kin, NULL, 10, 10, 5, NULL, NULL, 0, NULL));
  REFUSED(PRISM_INVALID_ARGUMENT, "keys_out and values_out are both NULL",
          TOPK(U, kin, vin, 10, 10, 5, NULL, NULL, 0, &unsorted));
  /* Destroyed just before the call, so no new handle takes its address. */
  prism_buffer *dead = harness_poisoned(ctx, 400);
  prism_buffer_destroy(dead);
  REFUSED(PRISM_INVALID_ARGUMENT, "keys_in is not a live prism buffer",
          TOPK(U, dead, NULL, 10, 10, 5, kout, NULL, 0, NULL));
  dead = harness_poisoned(ctx, 400);
  prism_buffer_destroy(dead);
  REFUSED(PRISM_INVALID_ARGUMENT, "values_out is not a live prism buffer",
          TOPK(U, kin, NULL, 10, 10, 5, kout, dead, 4, NULL));
  REFUSED(PRISM_CONTEXT_MISMATCH, "keys_in belongs to another context",
          TOPK(U, foreign, NULL, 10, 10, 5, kout, NULL, 0, NULL));
  REFUSED(PRISM_CONTEXT_MISMATCH, "values_in belongs to another context",
          TOPK(U, kin, foreign, 10, 10, 5, kout, vout, 4, NULL));
  REFUSED(PRISM_CONTEXT_MISMATCH, "keys_out belongs to another context",
          TOPK(U, kin, NULL, 10, 10, 5, foreign, NULL, 0, NULL));
  REFUSED(PRISM_CONTEXT_MISMATCH, "values_out belongs to another context",
          TOPK(U, kin, NULL, 10, 10, 5, NULL, foreign, 8, NULL));

  /* Type and order. */
  REFUSED(PRISM_UNSUPPORTED, "u8",
          TOPK(PRISM_U8, kin, NULL, 10, 10, 5, kout, NULL, 0, NULL));
  REFUSED(PRISM_UNSUPPORTED, "u8",
          TOPK(PRISM_U8, kin, vin, 10, 10, 5, kout, vout, 4, &unsorted));
  REFUSED(PRISM_INVALID_ARGUMENT, "type 42",
          TOPK((prism_type)42, kin, NULL, 10, 10, 5, kout, NULL, 0, NULL));
  REFUSED(PRISM_INVALID_ARGUMENT, "type -1",
          TOPK((prism_type)-1, kin, NULL, 10, 10, 5, NULL, vout, 4, NULL));
  REFUSED(PRISM_INVALID_ARGUMENT, "order 2",
          TOPK(U, kin, NULL, 10, 10, 5, kout, NULL, 0, &bad_order));
  bad_order.order = (prism_order)-1;
  REFUSED(PRISM_INVALID_ARGUMENT, "order -1",
          TOPK(U, kin, vin, 10, 10, 5, kout, vout, 4, &bad_order));
  if (!prism_context_supports(ctx, PRISM_F64))
    REFUSED(PRISM_UNSUPPORTED, "f64",
            TOPK(PRISM_F64, kin, NULL, 5, 10, 5, kout, NULL, 0, NULL));

  /* k against cols; cols = 0 makes every k bad. */
  REFUSED(PRISM_INVALID_ARGUMENT, "k is 0",
          TOPK(U, kin, NULL, 10, 10, 0, kout, NULL, 0, NULL));
  REFUSED(PRISM_INVALID_ARGUMENT, "k = 11 is more than cols = 10",
          TOPK(U, kin, NULL, 10, 10, 11, kout, NULL, 0, NULL));
  REFUSED(PRISM_INVALID_ARGUMENT, "k = 1 is more than cols = 0",
          TOPK(U, kin, NULL, 10, 0, 1, kout, NULL, 0, NULL));
  REFUSED(PRISM_INVALID_ARGUMENT, "k is 0",
          TOPK(U, kin, NULL, 10, 0, 0, kout, NULL, 0, NULL));
  REFUSED(PRISM_INVALID_ARGUMENT, "k = 18446744073709551615 is more than",
          TOPK(U, kin, NULL, 1, 100, SIZE_MAX, kout, NULL, 0, NULL));

  /* value_size: 4 or 8 with values_out, 0 without; values_in needs
   * values_out. */
  static const size_t bad_sizes[] = {0, 1, 2, 3, 5, 16, SIZE_MAX};
  for (size_t i = 0; i < sizeof bad_sizes / sizeof bad_sizes[0]; i++) {
    REFUSED(PRISM_INVALID_ARGUMENT, "value_size",
            TOPK(U, kin, NULL, 10, 10, 5, kout, vout, bad_sizes[i], NULL));
    REFUSED(PRISM_INVALID_ARGUMENT, "value_size",
            TOPK(U, kin, vin, 10, 10, 5, NULL, vout, bad_sizes[i], NULL));
  }
  REFUSED(PRISM_INVALID_ARGUMENT, "value_size is 4 without values_out",
          TOPK(U, kin, NULL, 10, 10, 5, kout, NULL, 4, NULL));
  REFUSED(PRISM_INVALID_ARGUMENT, "value_size is 8 without values_out",
          TOPK(U, kin, vin, 10, 10, 5, kout, NULL, 8, NULL));
  REFUSED(PRISM_INVALID_ARGUMENT, "values_in is given without values_out",
          TOPK(U, kin, vin, 10, 10, 5, kout, NULL, 0, NULL));

  /* Shapes whose bytes overflow; columns that u32 indices cannot count. */
  REFUSED(PRISM_INVALID_ARGUMENT, "overflow",
          TOPK(U, kin, NULL, SIZE_MAX / 2, 3, 1, kout, NULL, 0, NULL));
  REFUSED(PRISM_INVALID_ARGUMENT, "overflow",
          TOPK(U, kin, NULL, 2, SIZE_MAX / 4, 1, kout, NULL, 0, NULL));
  /* 4-byte keys that fit, 8-byte values that do not. */
  REFUSED(PRISM_INVALID_ARGUMENT, "overflow",
          TOPK(U, kin, vin, 1, SIZE_MAX / 8 + 1, 1, kout, vout, 8, NULL));
  if (SIZE_MAX > UINT32_MAX) {
    const size_t wide = (size_t)UINT32_MAX + 2;
    REFUSED(PRISM_INVALID_ARGUMENT, "u32 indices",
            TOPK(U, kin, NULL, 1, wide, 1, kout, vout, 4, NULL));
    /* 2^32 columns still fit u32 indices: then keys_in is too small. */
    REFUSED(PRISM_BUFFER_TOO_SMALL, "keys_in holds 400 bytes",
            TOPK(U, kin, NULL, 1, wide - 1, 1, kout, vout, 4, NULL));
    /* u64 indices count any number: then keys_in is too small. */
    REFUSED(PRISM_BUFFER_TOO_SMALL, "keys_in holds 400 bytes",
            TOPK(U, kin, NULL, 1, wide, 1, NULL, vout, 8, NULL));
  }

  /* Too small: the inputs for rows x cols, the outputs for rows x k. */
  REFUSED(PRISM_BUFFER_TOO_SMALL, "keys_in holds 400 bytes",
          TOPK(U, kin, NULL, 10, 11, 5, kout, NULL, 0, NULL));
  REFUSED(PRISM_BUFFER_TOO_SMALL, "keys_in holds 400 bytes",
          TOPK(PRISM_F64, kin, NULL, 6, 10, 5, vin, NULL, 0, NULL));
  REFUSED(PRISM_BUFFER_TOO_SMALL, "values_in holds 16 bytes",
          TOPK(U, kin, small, 10, 10, 5, kout, vout, 4, NULL));
  REFUSED(PRISM_BUFFER_TOO_SMALL, "values_in holds 400 bytes",
          TOPK(U, kin, kout, 10, 10, 5, NULL, vin, 8, NULL));
  REFUSED(PRISM_BUFFER_TOO_SMALL, "keys_out holds 16 bytes",
          TOPK(U, kin, NULL, 10, 10, 5, small, NULL, 0, NULL));
  REFUSED(PRISM_BUFFER_TOO_SMALL, "keys_out holds 400 bytes",
          TOPK(PRISM_I64, vin, NULL, 10, 10, 6, kout, NULL, 0, NULL));
  REFUSED(PRISM_BUFFER_TOO_SMALL, "values_out holds 16 bytes",
          TOPK(U, kin, NULL, 10, 10, 5, kout, small, 4, NULL));
  REFUSED(PRISM_BUFFER_TOO_SMALL, "values_out holds 400 bytes",
          TOPK(U, kin, vin, 10, 10, 6, kout, vout, 8, NULL));

  /* Misaligned views. */
  REFUSED(PRISM_INVALID_ARGUMENT, "keys_in is a view at byte 2",
          TOPK(U, odd, NULL, 10, 10, 5, kout, NULL, 0, NULL));
  REFUSED(PRISM_INVALID_ARGUMENT, "values_out is a view at byte 1204",
          TOPK(U, kin, NULL, 10, 10, 5, kout, odd4, 8, NULL));
  REFUSED(PRISM_INVALID_ARGUMENT, "keys_out is a view at byte 1204",
          TOPK(PRISM_F64, vin, NULL, 10, 10, 4, odd4, NULL, 0, NULL));

  /* Outputs that overlap an input or each other; the inputs may share. */
  REFUSED(PRISM_INVALID_ARGUMENT, "keys_in and keys_out",
          TOPK(U, kin, NULL, 10, 10, 5, kin, NULL, 0, NULL));
  REFUSED(PRISM_INVALID_ARGUMENT, "keys_in and keys_out",
          TOPK(U, in0, NULL, 10, 10, 5, out8, NULL, 0, NULL));
  REFUSED(PRISM_INVALID_ARGUMENT, "keys_in and values_out",
          TOPK(U, kin, NULL, 10, 10, 5, kout, kin, 4, NULL));
  REFUSED(PRISM_INVALID_ARGUMENT, "keys_in and values_out",
          TOPK(U, in0, NULL, 10, 10, 5, NULL, out8, 4, NULL));
  REFUSED(PRISM_INVALID_ARGUMENT, "values_in and keys_out",
          TOPK(U, kin, vin, 10, 10, 5, vin, vout, 4, NULL));
  REFUSED(PRISM_INVALID_ARGUMENT, "values_in and keys_out",
          TOPK(U, kin, in0, 10, 10, 5, out8, vout, 4, NULL));
  REFUSED(PRISM_INVALID_ARGUMENT, "values_in and values_out",
          TOPK(U, kin, vin, 10, 10, 5, kout, vin, 8, NULL));
  REFUSED(PRISM_INVALID_ARGUMENT, "values_in and values_out",
          TOPK(U, kin, in0, 10, 10, 5, NULL, out8, 4, NULL));
  REFUSED(PRISM_INVALID_ARGUMENT, "keys_out and values_out",
          TOPK(U, kin, NULL, 10, 10, 5, kout, kout, 4, NULL));
  REFUSED(PRISM_INVALID_ARGUMENT, "keys_out and values_out",
          TOPK(U, kin, vin, 10, 10, 5, out_a, out_b, 8, NULL));

  /* Nothing was written by the refused calls. */
  prism_buffer *const written[] = {kin, vin, kout, vout, small, big};
  for (size_t w = 0; w < sizeof written / sizeof written[0]; w++) {
    unsigned char *bytes = harness_download(written[w]);
    expect_poison(bytes, 0, prism_buffer_size(written[w]), "bad input",
                  "of an argument");
    free(bytes);
  }

  /* Then good calls: the inputs may share memory, the outputs may sit
   * side by side in one buffer. */
  const uint32_t keys[10] = {5, 9, 1, 9, 3, 0, 7, 9, 2, 8};
  prism_buffer *shared = harness_upload(ctx, keys, sizeof keys);
  HARNESS_OK(ctx, TOPK(U, shared, shared, 1, 10, 4, out_a, out_b, 4, NULL));
  uint32_t got_k[4], got_v[4];
  HARNESS_OK(ctx, prism_buffer_read(out_a, 0, got_k, sizeof got_k));
  HARNESS_OK(ctx, prism_buffer_read(out_b, 0, got_v, sizeof got_v));
  const uint32_t want[4] = {9, 9, 9, 8};
  cr_assert(memcmp(got_k, want, sizeof want) == 0 &&
                memcmp(got_v, want, sizeof want) == 0,
            "after the refusals: got keys %u %u %u %u, values %u %u %u %u",
            got_k[0], got_k[1], got_k[2], got_k[3], got_v[0], got_v[1],
            got_v[2], got_v[3]);
  HARNESS_OK(ctx, TOPK(U, shared, NULL, 1, 10, 3, NULL, kout, 8, &unsorted));
  uint64_t cols3[3];
  HARNESS_OK(ctx, prism_buffer_read(kout, 0, cols3, sizeof cols3));
  int seen[10] = {0};
  for (size_t i = 0; i < 3; i++) {
    cr_assert_lt(cols3[i], 10, "column %llu", (unsigned long long)cols3[i]);
    seen[cols3[i]]++;
  }
  cr_assert(seen[1] == 1 && seen[3] == 1 && seen[7] == 1,
            "unsorted top 3 of the ties: columns %llu %llu %llu, want 1 3 7",
            (unsigned long long)cols3[0], (unsigned long long)cols3[1],
            (unsigned long long)cols3[2]);
  prism_buffer_destroy(shared);

  prism_buffer_destroy(odd4);
  prism_buffer_destroy(odd);
  prism_buffer_destroy(out_b);
  prism_buffer_destroy(out_a);
  prism_buffer_destroy(out8);
  prism_buffer_destroy(in0);
  prism_buffer_destroy(big);
  prism_buffer_destroy(foreign);
  prism_buffer_destroy(small);
  prism_buffer_destroy(vout);
  prism_buffer_destroy(kout);
  prism_buffer_destroy(vin);
  prism_buffer_destroy(kin);
  prism_context_destroy(other);
  prism_context_destroy(ctx);
}

/* ---- The reference itself ------------------------------------------------ */

/* ref_topk (the bounded heap the bench times) gives the first k of the
 * stable sort order (ref_sort_order) in every row. */
Test(topk, reference_agrees_with_the_sort) {
  const shape shapes[] = {{1, 1, 1},       {1, 2, 1},     {1, 5000, 5000},
                          {1, 5000, 4999}, {1, 30011, 1}, {1, 30011, 700},
                          {13, 999, 64},   {300, 17, 16}, {2, 65537, 32768}};
  size_t salt = 0;
  for (size_t t = 0; t < KEY_TYPES; t++)
    for (int desc = 0; desc < 2; desc++)
      for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++, salt++) {
        const prism_type type = key_types[t];
        const size_t ks = prism_type_size(type);
        const size_t rows = shapes[s].rows, cols = shapes[s].cols,
                     k = shapes[s].k;
        const key_pattern p = pick_pattern(type, salt);
        unsigned char *keys = make_keys(type, p, salt + 1, rows, cols, k, desc);
        uint64_t *got = harness_malloc(rows * k * sizeof *got);
        size_t *perm = harness_malloc(cols * sizeof *perm);
        cr_assert_eq(ref_topk(type, keys, rows, cols, k, desc, got), 0);
        for (size_t r = 0; r < rows; r++) {
          ref_sort_order(type, keys + r * cols * ks, cols, desc, 0,
                         (unsigned)ks * 8, perm);
          for (size_t i = 0; i < k; i++)
            cr_assert_eq(got[r * k + i], (uint64_t)perm[i],
                         "ref_topk %s %s, %s, %zu x %zu, k = %zu: row %zu "
                         "rank %zu is column %llu, the stable sort gives %zu",
                         prism_type_name(type),
                         desc ? "descending" : "ascending", pattern_name(p),
                         rows, cols, k, r, i,
                         (unsigned long long)got[r * k + i], perm[i]);
        }
        free(perm);
        free(got);
        free(keys);
      }
}
