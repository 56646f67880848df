/* SPDX-License-Identifier: MIT */
/* Seeded test data, the shared size lists and the named test graphs. */
#include "vectors.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Tile and block sizes in use: 256 work-items x 4..16 items, 1024-item
 * groups, single-block thresholds at a few tiles. Each power of two up to
 * 2^20 appears with both neighbours, and so do 3 x 2^k. */
const size_t vec_sizes[] = {
    0,      1,      2,      3,       4,       5,       7,      8,      9,
    15,     16,     17,     31,      32,      33,      63,     64,     65,
    127,    128,    129,    255,     256,     257,     511,    512,    513,
    767,    768,    769,    1023,    1024,    1025,    1535,   1536,   1537,
    2047,   2048,   2049,   3071,    3072,    3073,    4095,   4096,   4097,
    6143,   6144,   6145,   8191,    8192,    8193,    12287,  12288,  12289,
    16383,  16384,  16385,  24575,   24576,   24577,   32767,  32768,  32769,
    49151,  49152,  49153,  65535,   65536,   65537,   98303,  98304,  98305,
    131071, 131072, 131073, 196607,  196608,  196609,  262143, 262144, 262145,
    524287, 524288, 524289, 1048575, 1048576, 1048577, 1000003};
const size_t vec_sizes_count = sizeof vec_sizes / sizeof vec_sizes[0];

const size_t vec_large_sizes[] = {(1u << 22) + 7, (1u << 24) + 1};
const size_t vec_large_sizes_count =
    sizeof vec_large_sizes / sizeof vec_large_sizes[0];

uint64_t vec_next(uint64_t *state) {
  uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

const char *vec_pattern_name(vec_pattern pattern) {
  static const char *const names[VEC_PATTERN_COUNT] = {
      "random",    "small",      "extreme", "equal",
      "ascending", "descending", "special", "signed-zeros"};
  return (unsigned)pattern < VEC_PATTERN_COUNT ? names[pattern] : "?";
}

static int is_float(prism_type type) {
  return type == PRISM_F32 || type == PRISM_F64;
}

int vec_pattern_applies(vec_pattern pattern, prism_type type) {
  if (pattern == VEC_SPECIAL || pattern == VEC_SIGNED_ZEROS)
    return is_float(type);
  return 1;
}

/* One value of the pattern at position i, as an integer (integer types) or
 * a double (float types). */
static int64_t int_value(prism_type type, vec_pattern pattern, uint64_t r,
                         size_t i, size_t n) {
  int64_t lo = type == PRISM_I32   ? INT32_MIN
               : type == PRISM_I64 ? INT64_MIN
                                   : 0;
  switch (pattern) {
  case VEC_SMALL:
    return (int64_t)(r % 201) - 100;
  case VEC_EXTREME: {
    /* min, min + 1, max - 1, max, -1, 0, 1 */
    static const int kinds = 7;
    int k = (int)(r % (uint64_t)kinds);
    int64_t hi = type == PRISM_I32   ? INT32_MAX
                 : type == PRISM_U32 ? (int64_t)UINT32_MAX
                 : type == PRISM_I64 ? INT64_MAX
                                     : -1; /* u64: all ones */
    int64_t v[] = {lo, lo + 1, hi - 1, hi, -1, 0, 1};
    return v[k];
  }
  case VEC_EQUAL:
    return 42;
  case VEC_ASCENDING:
    return lo + (int64_t)i * 3;
  case VEC_DESCENDING:
    return (int64_t)(n - i) * 3 - 7;
  default:
    return (int64_t)r;
  }
}

static double float_value(vec_pattern pattern, uint64_t r, size_t i, size_t n,
                          int f32) {
  double uniform = (double)(r >> 11) * 0x1.0p-53 * 2.0 - 1.0;
  switch (pattern) {
  case VEC_SMALL:
    return (double)((int64_t)(r % 201) - 100);
  case VEC_EXTREME: {
    double big = f32 ? 1e30 : 1e300;
    double tiny = f32 ? FLT_MIN : DBL_MIN;
    double v[] = {big, -big, tiny, -tiny, 1.0, -1.0};
    return v[r % 6];
  }
  case VEC_EQUAL:
    return 0.75;
  case VEC_ASCENDING:
    return -1000.0 + (double)i * 0.5;
  case VEC_DESCENDING:
    return (double)(n - i) * 0.25;
  case VEC_SPECIAL: {
    /* Mostly ordinary values, with specials sprinkled in. */
    double denorm = f32 ? FLT_MIN / 8 : DBL_MIN / 8;
    double v[] = {NAN, -NAN, INFINITY, -INFINITY, 0.0, -0.0, denorm, -denorm};
    unsigned k = (unsigned)(r % 64);
    return k < 8 ? v[k] : uniform;
  }
  case VEC_SIGNED_ZEROS:
    return (r & 1) ? -0.0 : 0.0;
  default:
    return uniform;
  }
}

void vec_fill(prism_type type, vec_pattern pattern, uint64_t seed, void *out,
              size_t n) {
  uint64_t state = seed * 0x2545F4914F6CDD1Dull + (uint64_t)pattern;
  for (size_t i = 0; i < n; i++) {
    uint64_t r = vec_next(&state);
    switch (type) {
    case PRISM_I32:
      ((int32_t *)out)[i] = (int32_t)int_value(type, pattern, r, i, n);
      break;
    case PRISM_U32:
      ((uint32_t *)out)[i] = (uint32_t)int_value(type, pattern, r, i, n);
      break;
    case PRISM_I64:
      ((int64_t *)out)[i] = int_value(type, pattern, r, i, n);
      break;
    case PRISM_U64:
      ((uint64_t *)out)[i] = (uint64_t)int_value(type, pattern, r, i, n);
      break;
    case PRISM_F32:
      ((float *)out)[i] = (float)float_value(pattern, r, i, n, 1);
      break;
    case PRISM_F64:
      ((double *)out)[i] = float_value(pattern, r, i, n, 0);
      break;
    case PRISM_U8: /* the low byte of the u32 pattern */
      ((uint8_t *)out)[i] = (uint8_t)int_value(PRISM_U32, pattern, r, i, n);
      break;
    }
  }
}

/* ---- Test graphs --------------------------------------------------------- */

typedef struct edge {
  uint32_t u, v;
} edge;

/* A CSR from an edge list (each undirected edge also reversed, a self loop
 * once), rows in list order; arrays malloc'd for prism_csr_free. */
static int from_edges(size_t n, int directed, const edge *edges, size_t count,
                      prism_csr *out) {
  size_t m = 0;
  for (size_t i = 0; i < count; i++)
    m += directed || edges[i].u == edges[i].v ? 1 : 2;
  out->num_vertices = n;
  out->num_edges = m;
  out->directed = directed;
  out->row_offsets = calloc(n + 1, sizeof *out->row_offsets);
  out->col_indices = malloc((m ? m : 1) * sizeof *out->col_indices);
  if (!out->row_offsets || !out->col_indices)
    abort();
  for (size_t i = 0; i < count; i++) {
    out->row_offsets[edges[i].u + 1]++;
    if (!directed && edges[i].u != edges[i].v)
      out->row_offsets[edges[i].v + 1]++;
  }
  for (size_t v = 0; v < n; v++)
    out->row_offsets[v + 1] += out->row_offsets[v];
  uint64_t *fill = malloc((n ? n : 1) * sizeof *fill);
  if (!fill)
    abort();
  memcpy(fill, out->row_offsets, n * sizeof *fill);
  for (size_t i = 0; i < count; i++) {
    out->col_indices[fill[edges[i].u]++] = edges[i].v;
    if (!directed && edges[i].u != edges[i].v)
      out->col_indices[fill[edges[i].v]++] = edges[i].u;
  }
  free(fill);
  return 1;
}

#define EDGES(list) list, sizeof list / sizeof list[0]

static int case_source_without_edges(prism_csr *out) {
  static const edge e[] = {{1, 2}, {2, 3}, {3, 4}, {4, 5}};
  return from_edges(6, 0, EDGES(e), out);
}

static int case_self_loops(prism_csr *out) {
  static const edge e[] = {{0, 0}, {0, 1}, {1, 1}, {1, 2},
                           {2, 2}, {3, 3}, {2, 4}, {4, 4}};
  return from_edges(5, 0, EDGES(e), out);
}

static int case_duplicate_edges(prism_csr *out) {
  static const edge e[] = {{0, 1}, {0, 1}, {1, 0}, {1, 2}, {1, 2},
                           {0, 2}, {2, 3}, {3, 2}, {3, 3}, {3, 3}};
  return from_edges(4, 0, EDGES(e), out);
}

/* 0..9 a cycle with a chord, 10..29 a dense block, 30..34 a path, 35..39
 * isolated. */
static int case_disconnected(prism_csr *out) {
  edge e[10 + 20 * 19 / 2 + 4 + 1];
  size_t k = 0;
  for (uint32_t i = 0; i < 10; i++)
    e[k++] = (edge){i, (i + 1) % 10};
  for (uint32_t i = 10; i < 30; i++)
    for (uint32_t j = i + 1; j < 30; j++)
      e[k++] = (edge){j, i};
  for (uint32_t i = 30; i < 34; i++)
    e[k++] = (edge){i, i + 1};
  e[k++] = (edge){2, 7};
  return from_edges(40, 0, e, k, out);
}

/* From 0: 0 -> 1 -> 2 -> 0 cycle, 2 -> 3 -> 5 -> 7 -> 3; 4 -> 0 and
 * 6 -> 5 point in, so 4 and 6 are not reached. */
static int case_directed(prism_csr *out) {
  static const edge e[] = {{0, 1}, {1, 2}, {2, 0}, {2, 3}, {4, 0},
                           {3, 5}, {6, 5}, {5, 7}, {7, 3}, {7, 7}};
  return from_edges(8, 1, EDGES(e), out);
}

/* Keep directed edge u -> v of an undirected RMAT graph when a hash of
 * (u, v) is odd: u -> v and v -> u are kept independently. */
static int case_directed_rmat(prism_csr *out) {
  prism_csr g;
  if (prism_csr_rmat(11, 8, 7, &g) != PRISM_OK)
    return 0;
  size_t m = 0;
  for (size_t u = 0; u < g.num_vertices; u++) {
    uint64_t begin = g.row_offsets[u], end = g.row_offsets[u + 1];
    g.row_offsets[u] = m;
    for (uint64_t e = begin; e < end; e++) {
      uint32_t v = g.col_indices[e];
      uint64_t h = ((uint64_t)u * 0x9E3779B97F4A7C15ull) ^ (v * 0xBF58476Du);
      if ((h >> 29) & 1)
        g.col_indices[m++] = v;
    }
  }
  g.row_offsets[g.num_vertices] = m;
  g.num_edges = m;
  g.directed = 1;
  *out = g;
  return 1;
}

int ref_graph_case(int i, prism_csr *out, const char **name) {
  static const char *const names[REF_GRAPH_CASES] = {
      "one_vertex",   "source_without_edges",
      "self_loops",   "duplicate_edges",
      "disconnected", "star",
      "long_path",    "grid",
      "rmat",         "directed",
      "directed_rmat"};
  memset(out, 0, sizeof *out);
  if (name)
    *name = i >= 0 && i < REF_GRAPH_CASES ? names[i] : NULL;
  int ok;
  switch (i) {
  case 0:
    ok = from_edges(1, 0, NULL, 0, out);
    break;
  case 1:
    ok = case_source_without_edges(out);
    break;
  case 2:
    ok = case_self_loops(out);
    break;
  case 3:
    ok = case_duplicate_edges(out);
    break;
  case 4:
    ok = case_disconnected(out);
    break;
  case 5:
    ok = prism_csr_star(3000, out) == PRISM_OK;
    break;
  case 6:
    ok = prism_csr_path(2500, out) == PRISM_OK;
    break;
  case 7:
    ok = prism_csr_grid(61, 37, out) == PRISM_OK;
    break;
  case 8:
    ok = prism_csr_rmat(10, 16, 1, out) == PRISM_OK;
    break;
  case 9:
    ok = case_directed(out);
    break;
  case 10:
    ok = case_directed_rmat(out);
    break;
  default:
    ok = 0;
  }
  if (!ok)
    memset(out, 0, sizeof *out);
  return ok;
}
