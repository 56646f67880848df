/* SPDX-License-Identifier: MIT */
/*
 * The misuse walk: every public entry point that takes device buffers, put
 * through each kind of bad argument in turn, from a table that says what
 * each entry takes.
 *
 * For each entry: a NULL, dead (destroyed) and foreign (another context's)
 * context; for each buffer argument, NULL, destroyed, another context's and
 * one byte too short; each enum argument out of range; each required host
 * pointer NULL; n overflowing size_t arithmetic; and every pair of buffer
 * arguments as one buffer. A refusal must carry the expected status and a
 * message naming the argument (both, for a pair) and leave every buffer as
 * it was. A pair the entry allows (in place, or two arguments it only
 * reads) must give what the same call gives on separate buffers. After
 * every call the context must still compute correctly, and nothing past the
 * bytes a call may write is ever changed: each buffer carries a guard zone.
 *
 * Also here: handles used after destroy (the registry, not the freed
 * object, answers), and two threads on one context (one is refused with
 * PRISM_CONTEXT_BUSY; neither gets a wrong result).
 */
#include "harness.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

int harness_needs_backend = 1;

#define N 64          /* elements per call */
#define GUARD 64      /* bytes after what a call may touch */
#define BINS 16       /* histogram bins */
#define MAX_ARGS 5    /* buffer arguments of one entry */
#define MAX_ENUMS 4   /* enum arguments of one entry */
#define MAX_HOSTS 3   /* required host pointers of one entry */
#define MAX_ALLOWED 4 /* pairs of one entry that may share a buffer */
#define SORT_N 65536u /* keys per sort in the thread test */

/* ---- What an entry takes ------------------------------------------------- */

enum { READ = 1, WRITE = 2 };

typedef struct arg_spec {
  const char *name;
  size_t bytes; /* what the call reads or writes of it */
  int access;   /* READ, WRITE or both */
  int optional; /* NULL is a valid value */
} arg_spec;

/* One call's variation: which enum is out of range, which host pointer is
 * NULL, and the element count. */
typedef struct variant {
  int bad_enum;  /* -1 or an index into entry.enums */
  int null_host; /* -1 or an index into entry.hosts */
  size_t n;
} variant;

typedef struct fixture fixture;

typedef struct entry {
  const char *fn;
  int ctx_from_buffer; /* no ctx argument: the context is arg 0's */
  int nargs;
  arg_spec args[MAX_ARGS];
  const char *allowed[MAX_ALLOWED]; /* pairs "a,b" that may be one buffer */
  int nenums;
  const char *enums[MAX_ENUMS]; /* what the refusal names */
  int nhosts;
  const char *hosts[MAX_HOSTS];
  int takes_n; /* a huge n must be refused */
  prism_status (*call)(fixture *f, prism_context *ctx, prism_buffer **b,
                       const variant *v);
} entry;

/* A path graph for prism_bfs, its matrix (f32 ones) for prism_spmv and a
 * 1-D f32 stencil of N points for prism_stencil_apply, made on the context
 * under test. */
struct fixture {
  prism_context *ctx, *other;
  prism_graph *graph;
  prism_matrix *matrix;
  prism_stencil *stencil;
};

static const prism_value bad_value = {.u32 = 99};

static prism_type type_or_bad(const variant *v, int k, prism_type t) {
  return v->bad_enum == k ? (prism_type)bad_value.u32 : t;
}

static void *host_or_null(const variant *v, int k, void *p) {
  return v->null_host == k ? NULL : p;
}

/* ---- The calls ----------------------------------------------------------- */

static prism_status call_write(fixture *f, prism_context *ctx, prism_buffer **b,
                               const variant *v) {
  (void)f, (void)ctx;
  uint32_t host[N] = {0};
  return prism_buffer_write(b[0], 0, host_or_null(v, 0, host), sizeof host);
}

static prism_status call_read(fixture *f, prism_context *ctx, prism_buffer **b,
                              const variant *v) {
  (void)f, (void)ctx;
  uint32_t host[N];
  return prism_buffer_read(b[0], 0, host_or_null(v, 0, host), sizeof host);
}

static prism_status call_fill(fixture *f, prism_context *ctx, prism_buffer **b,
                              const variant *v) {
  (void)f, (void)ctx;
  uint32_t pattern = 7;
  return prism_buffer_fill(b[0], 0, host_or_null(v, 0, &pattern),
                           sizeof pattern, N * sizeof pattern);
}

static prism_status call_copy(fixture *f, prism_context *ctx, prism_buffer **b,
                              const variant *v) {
  (void)f, (void)ctx, (void)v;
  return prism_buffer_copy(b[0], 0, b[1], 0, N * sizeof(uint32_t));
}

static prism_status call_reduce(fixture *f, prism_context *ctx,
                                prism_buffer **b, const variant *v) {
  (void)f;
  uint32_t r;
  return prism_reduce(ctx, type_or_bad(v, 0, PRISM_U32),
                      v->bad_enum == 1 ? (prism_op)bad_value.u32 : PRISM_SUM,
                      b[0], v->n, host_or_null(v, 0, &r));
}

static prism_status call_reduce_to_buffer(fixture *f, prism_context *ctx,
                                          prism_buffer **b, const variant *v) {
  (void)f;
  return prism_reduce_to_buffer(
      ctx, type_or_bad(v, 0, PRISM_U32),
      v->bad_enum == 1 ? (prism_op)bad_value.u32 : PRISM_MAX, b[0], v->n, b[1]);
}

static prism_status call_scan(fixture *f, prism_context *ctx, prism_buffer **b,
                              const variant *v) {
  (void)f;
  return prism_scan(ctx, type_or_bad(v, 0, PRISM_U32),
                    v->bad_enum == 1 ? (prism_op)bad_value.u32 : PRISM_SUM,
                    v->bad_enum == 2 ? (prism_scan_kind)bad_value.u32
                                     : PRISM_EXCLUSIVE,
                    b[0], b[1], v->n);
}

static prism_status call_sort_keys(fixture *f, prism_context *ctx,
                                   prism_buffer **b, const variant *v) {
  (void)f;
  prism_sort_options o;
  prism_sort_options_init(&o, PRISM_U32);
  if (v->bad_enum == 1)
    o.order = (prism_order)bad_value.u32;
  return prism_sort_keys(ctx, type_or_bad(v, 0, PRISM_U32), b[0], b[1], v->n,
                         &o);
}

static prism_status call_sort_pairs(fixture *f, prism_context *ctx,
                                    prism_buffer **b, const variant *v) {
  (void)f;
  prism_sort_options o;
  prism_sort_options_init(&o, PRISM_U32);
  o.order = PRISM_DESCENDING;
  if (v->bad_enum == 1)
    o.order = (prism_order)bad_value.u32;
  return prism_sort_pairs(ctx, type_or_bad(v, 0, PRISM_U32), b[0], b[1], b[2],
                          b[3], v->bad_enum == 2 ? 3 : 4, v->n, &o);
}

/* a and b hold N / 2 keys each; the walk's huge n goes to na. */
static prism_status call_merge_keys(fixture *f, prism_context *ctx,
                                    prism_buffer **b, const variant *v) {
  (void)f;
  return prism_merge_keys(ctx, type_or_bad(v, 0, PRISM_U32),
                          v->bad_enum == 1 ? (prism_order)bad_value.u32
                                           : PRISM_ASCENDING,
                          b[0], v->n - N / 2, b[1], N / 2, b[2]);
}

/* N keys, N segments of the walk's offsets (word k is k / 2): segments of
 * 0 or 1 key over the first N / 2 keys, the rest uncovered. */
static prism_status call_segmented_sort_keys(fixture *f, prism_context *ctx,
                                             prism_buffer **b,
                                             const variant *v) {
  (void)f;
  prism_sort_options o;
  prism_sort_options_init(&o, PRISM_U32);
  if (v->bad_enum == 1)
    o.order = (prism_order)bad_value.u32;
  size_t bad;
  return prism_segmented_sort_keys(ctx, type_or_bad(v, 0, PRISM_U32), b[0],
                                   b[1], v->n, type_or_bad(v, 2, PRISM_U32),
                                   b[2], N, &o, &bad);
}

static prism_status call_segmented_sort_pairs(fixture *f, prism_context *ctx,
                                              prism_buffer **b,
                                              const variant *v) {
  (void)f;
  prism_sort_options o;
  prism_sort_options_init(&o, PRISM_U32);
  o.order = PRISM_DESCENDING;
  if (v->bad_enum == 1)
    o.order = (prism_order)bad_value.u32;
  return prism_segmented_sort_pairs(ctx, type_or_bad(v, 0, PRISM_U32), b[0],
                                    b[1], b[2], b[3], v->bad_enum == 3 ? 3 : 4,
                                    v->n, type_or_bad(v, 2, PRISM_U32), b[4], N,
                                    &o, NULL);
}

/* N keys as rows of TOPK_COLS, the first half of each row out: keys and
 * the caller's values (word k is k / 2: ties in every row). */
#define TOPK_COLS 8
static prism_status call_topk(fixture *f, prism_context *ctx, prism_buffer **b,
                              const variant *v) {
  (void)f;
  prism_topk_options o;
  prism_topk_options_init(&o);
  if (v->bad_enum == 1)
    o.order = (prism_order)bad_value.u32;
  return prism_topk(ctx, type_or_bad(v, 0, PRISM_U32), b[0], b[1],
                    v->n / TOPK_COLS, TOPK_COLS, TOPK_COLS / 2, b[2], b[3],
                    v->bad_enum == 2 ? 3 : 4, &o);
}

static prism_status call_gather(fixture *f, prism_context *ctx,
                                prism_buffer **b, const variant *v) {
  (void)f;
  return prism_gather(ctx, v->bad_enum == 1 ? 5 : 4, b[0], N,
                      type_or_bad(v, 0, PRISM_U32), b[1], b[2], v->n, 1, NULL);
}

static prism_status call_scatter(fixture *f, prism_context *ctx,
                                 prism_buffer **b, const variant *v) {
  (void)f;
  return prism_scatter(ctx, v->bad_enum == 1 ? 5 : 4, b[0],
                       type_or_bad(v, 0, PRISM_U32), b[1], b[2], N, v->n, 1,
                       NULL);
}

static prism_status call_histogram_even(fixture *f, prism_context *ctx,
                                        prism_buffer **b, const variant *v) {
  (void)f;
  return prism_histogram_even(ctx, type_or_bad(v, 0, PRISM_U32), b[0], v->n,
                              BINS, 0, N, type_or_bad(v, 1, PRISM_U32), b[1]);
}

static prism_status call_histogram_range(fixture *f, prism_context *ctx,
                                         prism_buffer **b, const variant *v) {
  (void)f;
  uint32_t edges[BINS + 1];
  for (uint32_t i = 0; i <= BINS; i++)
    edges[i] = i * (N / BINS);
  return prism_histogram_range(ctx, type_or_bad(v, 0, PRISM_U32), b[0], v->n,
                               BINS, host_or_null(v, 0, edges),
                               type_or_bad(v, 1, PRISM_U32), b[1]);
}

static prism_status call_select_flagged(fixture *f, prism_context *ctx,
                                        prism_buffer **b, const variant *v) {
  (void)f;
  size_t kept;
  return prism_select_flagged(ctx, type_or_bad(v, 0, PRISM_U32), b[0],
                              type_or_bad(v, 1, PRISM_U32), b[1], b[2], v->n,
                              b[3], &kept);
}

static prism_status call_partition_flagged(fixture *f, prism_context *ctx,
                                           prism_buffer **b, const variant *v) {
  (void)f;
  return prism_partition_flagged(ctx, type_or_bad(v, 0, PRISM_U32), b[0],
                                 type_or_bad(v, 1, PRISM_U32), b[1], b[2], v->n,
                                 b[3], NULL);
}

static prism_predicate less_than_ten(const variant *v) {
  prism_predicate p = {PRISM_LESS, {.u32 = 10}, {.u32 = 0}};
  if (v->bad_enum == 1)
    p.compare = (prism_compare)bad_value.u32;
  return p;
}

static prism_status call_select_if(fixture *f, prism_context *ctx,
                                   prism_buffer **b, const variant *v) {
  (void)f;
  prism_predicate p = less_than_ten(v);
  return prism_select_if(ctx, type_or_bad(v, 0, PRISM_U32), b[0],
                         host_or_null(v, 0, &p), b[1], v->n, b[2], NULL);
}

static prism_status call_partition_if(fixture *f, prism_context *ctx,
                                      prism_buffer **b, const variant *v) {
  (void)f;
  prism_predicate p = less_than_ten(v);
  size_t kept;
  return prism_partition_if(ctx, type_or_bad(v, 0, PRISM_U32), b[0],
                            host_or_null(v, 0, &p), b[1], v->n, b[2], &kept);
}

static prism_status call_unique(fixture *f, prism_context *ctx,
                                prism_buffer **b, const variant *v) {
  (void)f;
  return prism_unique(ctx, type_or_bad(v, 0, PRISM_U32), b[0], b[1], v->n, b[2],
                      NULL);
}

static prism_status call_segmented_scan_flags(fixture *f, prism_context *ctx,
                                              prism_buffer **b,
                                              const variant *v) {
  (void)f;
  return prism_segmented_scan_flags(
      ctx, type_or_bad(v, 0, PRISM_U32),
      v->bad_enum == 1 ? (prism_op)bad_value.u32 : PRISM_SUM,
      v->bad_enum == 2 ? (prism_scan_kind)bad_value.u32 : PRISM_INCLUSIVE, b[0],
      type_or_bad(v, 3, PRISM_U32), b[1], b[2], v->n);
}

static prism_status call_segmented_scan_offsets(fixture *f, prism_context *ctx,
                                                prism_buffer **b,
                                                const variant *v) {
  (void)f;
  size_t bad;
  return prism_segmented_scan_offsets(
      ctx, type_or_bad(v, 0, PRISM_U32),
      v->bad_enum == 1 ? (prism_op)bad_value.u32 : PRISM_MAX,
      v->bad_enum == 2 ? (prism_scan_kind)bad_value.u32 : PRISM_EXCLUSIVE, b[0],
      b[1], v->n, type_or_bad(v, 3, PRISM_U32), b[2], N, 1, &bad);
}

static prism_status call_segmented_reduce(fixture *f, prism_context *ctx,
                                          prism_buffer **b, const variant *v) {
  (void)f;
  return prism_segmented_reduce(
      ctx, type_or_bad(v, 0, PRISM_U32),
      v->bad_enum == 1 ? (prism_op)bad_value.u32 : PRISM_SUM, b[0], v->n,
      type_or_bad(v, 2, PRISM_U32), b[1], N, b[2], 1, NULL);
}

static prism_status call_bfs(fixture *f, prism_context *ctx, prism_buffer **b,
                             const variant *v) {
  (void)v;
  prism_bfs_result r;
  return prism_bfs(ctx, f->graph, 0, b[0], b[1], NULL, &r);
}

static prism_status call_spmv(fixture *f, prism_context *ctx, prism_buffer **b,
                              const variant *v) {
  (void)v;
  return prism_spmv(ctx, 1.0, f->matrix, b[0], 0.5, b[1]);
}

/* n elements of 4 bytes as a batch of two n / 16 x 8 matrices; the bad
 * element size is 3. */
static prism_status call_transpose(fixture *f, prism_context *ctx,
                                   prism_buffer **b, const variant *v) {
  (void)f;
  return prism_transpose(ctx, v->bad_enum == 0 ? 3 : sizeof(uint32_t), b[0],
                         b[1], v->n / 16, 8, 2);
}

/* A 1-D f32 stencil of n points (destroyed again when made). */
static prism_status call_stencil_create(fixture *f, prism_context *ctx,
                                        prism_buffer **b, const variant *v) {
  (void)f, (void)b;
  float weights[3] = {0.25f, 0.5f, 0.25f};
  prism_stencil_desc d;
  prism_stencil_desc_init(&d);
  d.type = type_or_bad(v, 0, PRISM_F32);
  d.dims = 1;
  d.nx = v->n;
  d.border =
      v->bad_enum == 1 ? (prism_border)bad_value.u32 : PRISM_BORDER_CLAMP;
  prism_stencil *s = NULL;
  prism_status st = prism_stencil_create(ctx, host_or_null(v, 0, &d),
                                         host_or_null(v, 1, weights),
                                         v->null_host == 2 ? NULL : &s);
  prism_stencil_destroy(s);
  return st;
}

/* Two iterations: through the context's scratch, then into out. */
static prism_status call_stencil_apply(fixture *f, prism_context *ctx,
                                       prism_buffer **b, const variant *v) {
  (void)v;
  return prism_stencil_apply(ctx, f->stencil, b[0], b[1], 2);
}

/* ---- The table ----------------------------------------------------------- */

#define U32S(k) ((size_t)(k) * sizeof(uint32_t))
#define IN(name)                                                               \
  { name, U32S(N), READ, 0 }
#define OUT(name)                                                              \
  { name, U32S(N), WRITE, 0 }
#define COUNT_OUT                                                              \
  { "count_out", sizeof(uint64_t), WRITE, 1 }
#define OFFSETS                                                                \
  { "offsets", U32S(N + 1), READ, 0 }

static const entry entries[] = {
    {"prism_buffer_write",
     1,
     1,
     {OUT("dst")},
     {0},
     0,
     {0},
     1,
     {"src"},
     0,
     call_write},
    {"prism_buffer_read",
     1,
     1,
     {IN("src")},
     {0},
     0,
     {0},
     1,
     {"dst"},
     0,
     call_read},
    {"prism_buffer_fill",
     1,
     1,
     {OUT("buf")},
     {0},
     0,
     {0},
     1,
     {"pattern"},
     0,
     call_fill},
    {"prism_buffer_copy",
     1,
     2,
     {OUT("dst"), IN("src")},
     {0},
     0,
     {0},
     0,
     {0},
     0,
     call_copy},
    {"prism_reduce",
     0,
     1,
     {IN("in")},
     {0},
     2,
     {"type", "op"},
     1,
     {"result"},
     1,
     call_reduce},
    {"prism_reduce_to_buffer",
     0,
     2,
     {IN("in"), {"out", sizeof(uint32_t), WRITE, 0}},
     {0},
     2,
     {"type", "op"},
     0,
     {0},
     1,
     call_reduce_to_buffer},
    {"prism_scan",
     0,
     2,
     {IN("in"), OUT("out")},
     {"in,out"},
     3,
     {"type", "op", "kind"},
     0,
     {0},
     1,
     call_scan},
    {"prism_sort_keys",
     0,
     2,
     {IN("keys_in"), OUT("keys_out")},
     {"keys_in,keys_out"},
     2,
     {"type", "order"},
     0,
     {0},
     1,
     call_sort_keys},
    {"prism_sort_pairs",
     0,
     4,
     {IN("keys_in"), OUT("keys_out"), IN("values_in"), OUT("values_out")},
     {"keys_in,keys_out", "values_in,values_out"},
     3,
     {"type", "order", "value_size"},
     0,
     {0},
     1,
     call_sort_pairs},
    {"prism_merge_keys",
     0,
     3,
     {{"a", U32S(N / 2), READ, 0}, {"b", U32S(N / 2), READ, 0}, OUT("out")},
     {"a,b"},
     2,
     {"type", "order"},
     0,
     {0},
     1,
     call_merge_keys},
    {"prism_segmented_sort_keys",
     0,
     3,
     {IN("keys_in"), OUT("keys_out"), OFFSETS},
     {"keys_in,keys_out", "keys_in,offsets"},
     3,
     {"type", "order", "offset_type"},
     0,
     {0},
     1,
     call_segmented_sort_keys},
    {"prism_segmented_sort_pairs",
     0,
     5,
     {IN("keys_in"), OUT("keys_out"), IN("values_in"), OUT("values_out"),
      OFFSETS},
     {"keys_in,keys_out", "values_in,values_out", "keys_in,offsets",
      "values_in,offsets"},
     4,
     {"type", "order", "offset_type", "value_size"},
     0,
     {0},
     1,
     call_segmented_sort_pairs},
    {"prism_topk",
     0,
     4,
     {IN("keys_in"),
      {"values_in", U32S(N), READ, 1},
      {"keys_out", U32S(N / 2), WRITE, 1},
      {"values_out", U32S(N / 2), WRITE, 1}},
     {"keys_in,values_in"},
     3,
     {"type", "order", "value_size"},
     0,
     {0},
     1,
     call_topk},
    {"prism_gather",
     0,
     3,
     {IN("in"), IN("indices"), OUT("out")},
     {"in,indices"},
     2,
     {"index_type", "element_size"},
     0,
     {0},
     1,
     call_gather},
    {"prism_scatter",
     0,
     3,
     {IN("in"), IN("indices"), OUT("out")},
     {"in,indices"},
     2,
     {"index_type", "element_size"},
     0,
     {0},
     1,
     call_scatter},
    {"prism_histogram_even",
     0,
     2,
     {IN("samples"), {"counts", U32S(BINS), WRITE, 0}},
     {0},
     2,
     {"type", "counter_type"},
     0,
     {0},
     1,
     call_histogram_even},
    {"prism_histogram_range",
     0,
     2,
     {IN("samples"), {"counts", U32S(BINS), WRITE, 0}},
     {0},
     2,
     {"type", "counter_type"},
     1,
     {"edges"},
     1,
     call_histogram_range},
    {"prism_select_flagged",
     0,
     4,
     {IN("in"), IN("flags"), OUT("out"), COUNT_OUT},
     {"in,flags"},
     2,
     {"type", "flag_type"},
     0,
     {0},
     1,
     call_select_flagged},
    {"prism_partition_flagged",
     0,
     4,
     {IN("in"), IN("flags"), OUT("out"), COUNT_OUT},
     {"in,flags"},
     2,
     {"type", "flag_type"},
     0,
     {0},
     1,
     call_partition_flagged},
    {"prism_select_if",
     0,
     3,
     {IN("in"), OUT("out"), COUNT_OUT},
     {0},
     2,
     {"type", "compare"},
     1,
     {"predicate"},
     1,
     call_select_if},
    {"prism_partition_if",
     0,
     3,
     {IN("in"), OUT("out"), COUNT_OUT},
     {0},
     2,
     {"type", "compare"},
     1,
     {"predicate"},
     1,
     call_partition_if},
    {"prism_unique",
     0,
     3,
     {IN("in"), OUT("out"), COUNT_OUT},
     {0},
     1,
     {"type"},
     0,
     {0},
     1,
     call_unique},
    {"prism_segmented_scan_flags",
     0,
     3,
     {IN("in"), IN("flags"), OUT("out")},
     {"in,flags", "in,out"},
     4,
     {"type", "op", "kind", "flag_type"},
     0,
     {0},
     1,
     call_segmented_scan_flags},
    {"prism_segmented_scan_offsets",
     0,
     3,
     {IN("in"), OUT("out"), OFFSETS},
     {"in,out", "in,offsets"},
     4,
     {"type", "op", "kind", "offset_type"},
     0,
     {0},
     1,
     call_segmented_scan_offsets},
    {"prism_segmented_reduce",
     0,
     3,
     {IN("in"), OFFSETS, OUT("out")},
     {"in,offsets"},
     3,
     {"type", "op", "offset_type"},
     0,
     {0},
     1,
     call_segmented_reduce},
    {"prism_bfs",
     0,
     2,
     {OUT("levels"), {"parents", U32S(N), WRITE, 1}},
     {0},
     0,
     {0},
     0,
     {0},
     0,
     call_bfs},
    {"prism_spmv",
     0,
     2,
     {IN("x"), OUT("y")},
     {0},
     0,
     {0},
     0,
     {0},
     0,
     call_spmv},
    {"prism_transpose",
     0,
     2,
     {IN("in"), OUT("out")},
     {0},
     1,
     {"element_size"},
     0,
     {0},
     1,
     call_transpose},
    {"prism_stencil_create",
     0,
     0,
     {{0}},
     {0},
     2,
     {"desc->type", "desc->border"},
     3,
     {"desc", "weights", "out"},
     1,
     call_stencil_create},
    {"prism_stencil_apply",
     0,
     2,
     {IN("in"), OUT("out")},
     {0},
     0,
     {0},
     0,
     {0},
     0,
     call_stencil_apply},
};

#define ENTRIES (sizeof entries / sizeof entries[0])

/* ---- Buffers and their checks -------------------------------------------- */

/* Every buffer starts as word k = k / 2: valid indices, offsets (never
 * decreasing, at most N), flags, samples and keys with repeats, so every
 * entry's normal call is valid on it. */
static uint32_t *pattern(size_t bytes) {
  uint32_t *w = harness_malloc(bytes + sizeof(uint32_t));
  for (size_t k = 0; k * sizeof(uint32_t) < bytes; k++)
    w[k] = (uint32_t)(k / 2);
  return w;
}

static prism_buffer *make(prism_context *ctx, size_t bytes) {
  uint32_t *host = pattern(bytes);
  prism_buffer *b = harness_upload(ctx, host, bytes);
  free(host);
  return b;
}

/* A buffer's whole content, to compare after a call. */
typedef struct snapshot {
  unsigned char *bytes;
  size_t size;
} snapshot;

static snapshot take(prism_buffer *b) {
  snapshot s = {NULL, prism_buffer_size(b)};
  s.bytes = harness_download(b);
  return s;
}

static int same_bytes(const snapshot *a, const unsigned char *b, size_t from,
                      size_t to) {
  return memcmp(a->bytes + from, b + from, to - from) == 0;
}

/* The message a refusal left: the thread's when the context itself (or the
 * buffer that names it) was refused, else the context's. */
static const char *message(prism_context *ctx, int thread_local) {
  return thread_local ? prism_last_error() : prism_context_last_error(ctx);
}

static void expect_refusal(const entry *e, prism_status got, prism_status want,
                           const char *msg, const char *name1,
                           const char *name2, const char *what) {
  cr_assert_eq(got, want, "%s with %s: want %s, got %s (%s)", e->fn, what,
               prism_status_name(want), prism_status_name(got), msg);
  cr_assert(strstr(msg, name1) && (!name2 || strstr(msg, name2)),
            "%s with %s: message '%s' does not name %s%s%s", e->fn, what, msg,
            name1, name2 ? " and " : "", name2 ? name2 : "");
}

/* The entry's normal buffers on ctx, each with a guard zone. */
static void make_args(const entry *e, prism_context *ctx, prism_buffer **b) {
  for (int i = 0; i < e->nargs; i++)
    b[i] = make(ctx, e->args[i].bytes + GUARD);
}

static void destroy_args(const entry *e, prism_buffer **b) {
  for (int i = 0; i < e->nargs; i++)
    prism_buffer_destroy(b[i]);
}

static const variant normal = {-1, -1, N};

/* Call e with b, which must be refused with want naming name1 (and name2);
 * every buffer of keep must be unchanged. */
static void refused(fixture *f, const entry *e, prism_context *ctx,
                    prism_buffer **b, const variant *v, prism_buffer **keep,
                    int nkeep, prism_status want, int thread_local,
                    const char *name1, const char *name2, const char *what) {
  snapshot before[MAX_ARGS * 2];
  for (int i = 0; i < nkeep; i++)
    before[i] = take(keep[i]);
  prism_status st = e->call(f, ctx, b, v);
  expect_refusal(e, st, want, message(ctx, thread_local), name1, name2, what);
  for (int i = 0; i < nkeep; i++) {
    unsigned char *after = harness_download(keep[i]);
    cr_assert(same_bytes(&before[i], after, 0, before[i].size),
              "%s with %s wrote to a buffer it refused", e->fn, what);
    free(after);
    free(before[i].bytes);
  }
  harness_assert_alive(f->ctx, what);
}

/* ---- The walk ------------------------------------------------------------ */

static void walk_context(fixture *f, const entry *e) {
  if (e->ctx_from_buffer)
    return;
  prism_buffer *b[MAX_ARGS];
  make_args(e, f->ctx, b);
  refused(f, e, NULL, b, &normal, b, e->nargs, PRISM_NULL_POINTER, 1, "ctx",
          NULL, "a NULL ctx");
  prism_context *dead = harness_context();
  prism_context_destroy(dead);
  refused(f, e, dead, b, &normal, b, e->nargs, PRISM_INVALID_ARGUMENT, 1,
          "not a live prism context", NULL, "a destroyed ctx");
  /* Every buffer (and handle) is f->ctx's: on the other context each is
   * foreign. A call that takes none (prism_stencil_create) has nothing
   * foreign there. */
  if (e->nargs > 0)
    refused(f, e, f->other, b, &normal, b, e->nargs, PRISM_CONTEXT_MISMATCH, 0,
            "belongs to another context", NULL, "another ctx");
  destroy_args(e, b);
}

static void walk_buffers(fixture *f, const entry *e) {
  for (int i = 0; i < e->nargs; i++) {
    const arg_spec *a = &e->args[i];
    prism_buffer *b[MAX_ARGS], *saved;
    make_args(e, f->ctx, b);
    saved = b[i];
    int tl = e->ctx_from_buffer && i == 0;
    if (!a->optional) {
      b[i] = NULL;
      refused(f, e, f->ctx, b, &normal, b, 0, PRISM_NULL_POINTER, tl, a->name,
              NULL, "a NULL buffer");
    }
    /* One byte short: the call must not touch it. */
    b[i] = make(f->ctx, a->bytes - 1);
    refused(f, e, f->ctx, b, &normal, b, e->nargs, PRISM_BUFFER_TOO_SMALL, 0,
            a->name, NULL, "a short buffer");
    prism_buffer_destroy(b[i]);
    if (!e->ctx_from_buffer || i > 0) {
      b[i] = make(f->other, a->bytes + GUARD);
      refused(f, e, f->ctx, b, &normal, b, e->nargs, PRISM_CONTEXT_MISMATCH, 0,
              a->name, NULL, "another context's buffer");
      prism_buffer_destroy(b[i]);
    }
    /* Destroyed just before the call: no allocation can reuse it. */
    prism_buffer *dead = make(f->ctx, a->bytes);
    prism_buffer_destroy(dead);
    b[i] = dead;
    refused(f, e, f->ctx, b, &normal, NULL, 0, PRISM_INVALID_ARGUMENT, tl,
            a->name, "not a live prism buffer", "a destroyed buffer");
    b[i] = saved;
    destroy_args(e, b);
  }
}

static void walk_scalars(fixture *f, const entry *e) {
  prism_buffer *b[MAX_ARGS];
  make_args(e, f->ctx, b);
  for (int k = 0; k < e->nenums; k++) {
    variant v = normal;
    v.bad_enum = k;
    refused(f, e, f->ctx, b, &v, b, e->nargs, PRISM_INVALID_ARGUMENT, 0,
            e->enums[k], NULL, "a bad enum");
  }
  for (int k = 0; k < e->nhosts; k++) {
    variant v = normal;
    v.null_host = k;
    refused(f, e, f->ctx, b, &v, b, e->nargs, PRISM_NULL_POINTER, 0,
            e->hosts[k], NULL, "a NULL host pointer");
  }
  static const size_t huge[] = {SIZE_MAX, SIZE_MAX / 2 + 1, SIZE_MAX / 4 + 1};
  for (size_t k = 0; e->takes_n && k < sizeof huge / sizeof huge[0]; k++) {
    variant v = normal;
    v.n = huge[k];
    snapshot before = {NULL, 0};
    if (e->nargs > 0)
      before = take(b[0]);
    prism_status st = e->call(f, f->ctx, b, &v);
    cr_assert(st == PRISM_INVALID_ARGUMENT || st == PRISM_BUFFER_TOO_SMALL,
              "%s with n = %zu: got %s (%s)", e->fn, v.n, prism_status_name(st),
              prism_context_last_error(f->ctx));
    if (e->nargs > 0) {
      unsigned char *after = harness_download(b[0]);
      cr_assert(same_bytes(&before, after, 0, before.size), "%s wrote", e->fn);
      free(after);
      free(before.bytes);
    }
    harness_assert_alive(f->ctx, "a huge n");
  }
  destroy_args(e, b);
}

static int allowed(const entry *e, int i, int j) {
  char pair[64];
  snprintf(pair, sizeof pair, "%s,%s", e->args[i].name, e->args[j].name);
  for (int k = 0; k < MAX_ALLOWED && e->allowed[k]; k++)
    if (strcmp(e->allowed[k], pair) == 0)
      return 1;
  return 0;
}

/* i and j as one buffer is allowed: the result must be what separate
 * buffers of the same content give, and nothing past the bytes either
 * argument covers may change. */
static void alias_allowed(fixture *f, const entry *e, int i, int j) {
  prism_buffer *sep[MAX_ARGS], *one[MAX_ARGS];
  make_args(e, f->ctx, sep);
  make_args(e, f->ctx, one);
  size_t span =
      e->args[i].bytes > e->args[j].bytes ? e->args[i].bytes : e->args[j].bytes;
  prism_buffer_destroy(one[j]);
  prism_buffer_destroy(one[i]);
  one[i] = one[j] = make(f->ctx, span + GUARD);
  HARNESS_OK(f->ctx, e->call(f, f->ctx, sep, &normal));
  snapshot guard = take(one[i]);
  prism_status st = e->call(f, f->ctx, one, &normal);
  cr_assert_eq(st, PRISM_OK, "%s with %s = %s: %s (%s)", e->fn, e->args[i].name,
               e->args[j].name, prism_status_name(st),
               prism_context_last_error(f->ctx));
  /* The shared buffer ends as the written argument of the two ends. */
  int w = (e->args[j].access & WRITE) ? j : i;
  for (int k = 0; k < e->nargs; k++) {
    if (k == i || k == j)
      continue;
    snapshot want = take(sep[k]);
    unsigned char *got = harness_download(one[k]);
    cr_assert(same_bytes(&want, got, 0, e->args[k].bytes),
              "%s with %s = %s: %s differs from separate buffers", e->fn,
              e->args[i].name, e->args[j].name, e->args[k].name);
    free(got);
    free(want.bytes);
  }
  snapshot want = take(sep[w]);
  unsigned char *got = harness_download(one[i]);
  cr_assert(same_bytes(&want, got, 0, e->args[w].bytes),
            "%s with %s = %s: the shared buffer differs from %s on separate "
            "buffers",
            e->fn, e->args[i].name, e->args[j].name, e->args[w].name);
  cr_assert(same_bytes(&guard, got, span, guard.size),
            "%s with %s = %s wrote past both arguments", e->fn, e->args[i].name,
            e->args[j].name);
  free(got);
  free(want.bytes);
  free(guard.bytes);
  one[j] = NULL;
  destroy_args(e, sep);
  destroy_args(e, one);
  harness_assert_alive(f->ctx, "an allowed alias");
}

static void walk_pairs(fixture *f, const entry *e) {
  for (int i = 0; i < e->nargs; i++)
    for (int j = i + 1; j < e->nargs; j++) {
      if (allowed(e, i, j)) {
        alias_allowed(f, e, i, j);
        continue;
      }
      prism_buffer *b[MAX_ARGS];
      make_args(e, f->ctx, b);
      prism_buffer *spare = b[j];
      size_t span = e->args[i].bytes > e->args[j].bytes ? e->args[i].bytes
                                                        : e->args[j].bytes;
      prism_buffer_destroy(b[i]);
      b[i] = b[j] = make(f->ctx, span + GUARD);
      prism_buffer_destroy(spare);
      refused(f, e, f->ctx, b, &normal, b, e->nargs, PRISM_INVALID_ARGUMENT, 0,
              e->args[i].name, e->args[j].name, "one buffer for two arguments");
      b[j] = NULL;
      destroy_args(e, b);
    }
}

/* A view from byte at of a new buffer, holding what make() would: the
 * parent's other bytes hold the pattern too, so that the bytes on both
 * sides can be checked. */
static prism_buffer *view_at(prism_context *ctx, size_t at, size_t bytes,
                             prism_buffer **parent) {
  *parent = make(ctx, at + bytes + GUARD);
  prism_buffer *v = NULL;
  HARNESS_OK(ctx, prism_buffer_view(*parent, at, bytes + GUARD, &v));
  uint32_t *host = pattern(bytes + GUARD);
  HARNESS_OK(ctx, prism_buffer_write(v, 0, host, bytes + GUARD));
  free(host);
  return v;
}

/* Views as arguments. Each buffer argument in turn as a view one word into
 * a larger buffer: the call must give what whole buffers give and leave
 * the parent's bytes outside the view alone. The same view at byte 2
 * breaks every element's alignment: refused, naming the argument (reads,
 * writes and copies take any byte). Then each pair of arguments that are
 * not both only read, as two views of one buffer a word apart: their ranges
 * overlap without being the same, which no call allows. */
static void walk_views(fixture *f, const entry *e) {
  const int any_byte = strcmp(e->fn, "prism_buffer_write") == 0 ||
                       strcmp(e->fn, "prism_buffer_read") == 0 ||
                       strcmp(e->fn, "prism_buffer_copy") == 0;
  for (int i = 0; i < e->nargs; i++) {
    prism_buffer *want[MAX_ARGS], *b[MAX_ARGS], *parent;
    make_args(e, f->ctx, want);
    make_args(e, f->ctx, b);
    HARNESS_OK(f->ctx, e->call(f, f->ctx, want, &normal));
    prism_buffer_destroy(b[i]);
    b[i] = view_at(f->ctx, 8, e->args[i].bytes, &parent);
    snapshot before = take(parent);
    HARNESS_OK(f->ctx, e->call(f, f->ctx, b, &normal));
    for (int k = 0; k < e->nargs; k++) {
      snapshot w = take(want[k]);
      unsigned char *got = harness_download(b[k]);
      cr_assert(same_bytes(&w, got, 0, e->args[k].bytes),
                "%s with %s a view: %s differs from whole buffers", e->fn,
                e->args[i].name, e->args[k].name);
      free(got);
      free(w.bytes);
    }
    unsigned char *after = harness_download(parent);
    cr_assert(same_bytes(&before, after, 0, 8) &&
                  same_bytes(&before, after, 8 + e->args[i].bytes, before.size),
              "%s with %s a view wrote outside the view", e->fn,
              e->args[i].name);
    free(after);
    free(before.bytes);
    prism_buffer_destroy(b[i]);
    prism_buffer_destroy(parent);
    if (!any_byte) {
      b[i] = view_at(f->ctx, 2, e->args[i].bytes, &parent);
      const int fill = strcmp(e->fn, "prism_buffer_fill") == 0;
      refused(f, e, f->ctx, b, &normal, &parent, 1, PRISM_INVALID_ARGUMENT, 0,
              e->args[i].name, fill ? "pattern_size" : "element size",
              "a misaligned view");
      prism_buffer_destroy(b[i]);
      prism_buffer_destroy(parent);
    }
    b[i] = NULL;
    destroy_args(e, b);
    destroy_args(e, want);
  }
  for (int i = 0; i < e->nargs; i++)
    for (int j = i + 1; j < e->nargs; j++) {
      if (!((e->args[i].access | e->args[j].access) & WRITE))
        continue;
      prism_buffer *b[MAX_ARGS], *parent;
      make_args(e, f->ctx, b);
      prism_buffer_destroy(b[i]);
      prism_buffer_destroy(b[j]);
      size_t span = e->args[i].bytes > e->args[j].bytes ? e->args[i].bytes
                                                        : e->args[j].bytes;
      parent = make(f->ctx, 8 + span + GUARD);
      HARNESS_OK(f->ctx, prism_buffer_view(parent, 0, span + GUARD, &b[i]));
      HARNESS_OK(f->ctx, prism_buffer_view(parent, 8, span, &b[j]));
      refused(f, e, f->ctx, b, &normal, &parent, 1, PRISM_INVALID_ARGUMENT, 0,
              e->args[i].name, e->args[j].name, "overlapping views");
      destroy_args(e, b);
      prism_buffer_destroy(parent);
    }
}

/* A normal call succeeds and writes nothing past what it may. */
static void walk_normal(fixture *f, const entry *e) {
  prism_buffer *b[MAX_ARGS];
  make_args(e, f->ctx, b);
  snapshot before[MAX_ARGS];
  for (int i = 0; i < e->nargs; i++)
    before[i] = take(b[i]);
  HARNESS_OK(f->ctx, e->call(f, f->ctx, b, &normal));
  for (int i = 0; i < e->nargs; i++) {
    unsigned char *after = harness_download(b[i]);
    cr_assert(same_bytes(&before[i], after, e->args[i].bytes, before[i].size),
              "%s wrote past the %zu bytes of %s", e->fn, e->args[i].bytes,
              e->args[i].name);
    free(after);
    free(before[i].bytes);
  }
  destroy_args(e, b);
}

static fixture open_fixture(void) {
  fixture f;
  f.ctx = harness_context();
  f.other = harness_context();
  prism_csr path;
  cr_assert_eq(prism_csr_path(N, &path), PRISM_OK);
  HARNESS_OK(f.ctx, prism_graph_create(f.ctx, &path, &f.graph));
  float *ones = harness_malloc(path.num_edges * sizeof *ones);
  for (size_t z = 0; z < path.num_edges; z++)
    ones[z] = 1.0f;
  prism_csr_matrix m = {
      .csr = path, .num_cols = N, .value_type = PRISM_F32, .values = ones};
  HARNESS_OK(f.ctx, prism_matrix_create(f.ctx, &m, &f.matrix));
  free(ones);
  const float weights[3] = {0.25f, 0.5f, 0.25f};
  prism_stencil_desc d;
  prism_stencil_desc_init(&d);
  d.dims = 1;
  d.nx = N;
  d.border = PRISM_BORDER_CLAMP;
  HARNESS_OK(f.ctx, prism_stencil_create(f.ctx, &d, weights, &f.stencil));
  prism_csr_free(&path);
  return f;
}

static void close_fixture(fixture *f) {
  prism_graph_destroy(f->graph);
  prism_matrix_destroy(f->matrix);
  prism_stencil_destroy(f->stencil);
  prism_context_destroy(f->other);
  prism_context_destroy(f->ctx);
}

Test(misuse, every_entry_every_bad_argument, .timeout = 1200) {
  fixture f = open_fixture();
  for (size_t k = 0; k < ENTRIES; k++) {
    const entry *e = &entries[k];
    walk_normal(&f, e);
    walk_context(&f, e);
    walk_buffers(&f, e);
    walk_scalars(&f, e);
    walk_pairs(&f, e);
    walk_views(&f, e);
  }
  close_fixture(&f);
}

/* The specific wrong results this suite was made for: each is refused now. */
Test(misuse, aliases_that_gave_wrong_results) {
  fixture f = open_fixture();
  prism_context *ctx = f.ctx;
  prism_buffer *a = make(ctx, 8 * N), *in = make(ctx, 8 * N);
  HARNESS_EXPECT(ctx, PRISM_INVALID_ARGUMENT, "indices and out",
                 prism_scatter(ctx, 4, in, PRISM_U32, a, a, N, N, 0, NULL));
  HARNESS_EXPECT(ctx, PRISM_INVALID_ARGUMENT, "indices and out",
                 prism_gather(ctx, 8, in, N, PRISM_U32, a, a, N, 0, NULL));
  HARNESS_EXPECT(
      ctx, PRISM_INVALID_ARGUMENT, "samples and counts",
      prism_histogram_even(ctx, PRISM_U32, a, N, BINS, 0, N, PRISM_U32, a));
  prism_buffer_destroy(a);
  prism_buffer_destroy(in);
  harness_assert_alive(ctx, "the refused aliases");
  close_fixture(&f);
}

/* ---- Handles after destroy ----------------------------------------------- */

Test(misuse, handles_after_destroy) {
  prism_context *ctx = harness_context();
  uint32_t host[4] = {1, 2, 3, 4}, r;
  prism_buffer *b = harness_upload(ctx, host, sizeof host);
  prism_buffer_destroy(b);
  HARNESS_EXPECT(NULL, PRISM_INVALID_ARGUMENT, "not a live prism buffer",
                 prism_buffer_write(b, 0, host, 4));
  HARNESS_EXPECT(NULL, PRISM_INVALID_ARGUMENT, "not a live prism buffer",
                 prism_buffer_read(b, 0, host, 4));
  HARNESS_EXPECT(NULL, PRISM_INVALID_ARGUMENT, "not a live prism buffer",
                 prism_buffer_fill(b, 0, &r, 4, 4));
  HARNESS_EXPECT(ctx, PRISM_INVALID_ARGUMENT, "not a live prism buffer",
                 prism_reduce(ctx, PRISM_U32, PRISM_SUM, b, 4, &r));
  cr_assert_eq(prism_buffer_size(b), 0);
  cr_assert_null(prism_buffer_context(b));
  prism_buffer_destroy(b); /* twice: nothing happens */

  prism_csr path;
  cr_assert_eq(prism_csr_path(8, &path), PRISM_OK);
  prism_graph *g;
  HARNESS_OK(ctx, prism_graph_create(ctx, &path, &g));
  prism_buffer *levels = make(ctx, 32);
  prism_graph_destroy(g);
  HARNESS_EXPECT(ctx, PRISM_INVALID_ARGUMENT, "not a live prism graph",
                 prism_bfs(ctx, g, 0, levels, NULL, NULL, NULL));
  cr_assert_eq(prism_graph_vertices(g), 0);
  cr_assert_eq(prism_graph_edges(g), 0);
  prism_graph_destroy(g);
  harness_assert_alive(ctx, "handles used after destroy");

  /* A graph and buffers left on a context go with it. */
  HARNESS_OK(ctx, prism_graph_create(ctx, &path, &g));
  prism_csr_free(&path);
  prism_context_destroy(ctx);
  cr_assert_eq(prism_graph_vertices(g), 0);
  cr_assert_eq(prism_buffer_size(levels), 0);
  prism_graph_destroy(g);
  prism_buffer_destroy(levels);
  HARNESS_EXPECT(NULL, PRISM_INVALID_ARGUMENT, "not a live prism context",
                 prism_reduce(ctx, PRISM_U32, PRISM_SUM, b, 4, &r));
  HARNESS_EXPECT(NULL, PRISM_INVALID_ARGUMENT, "not a live prism context",
                 prism_context_finish(ctx));
  HARNESS_EXPECT(NULL, PRISM_INVALID_ARGUMENT, "not a live prism context",
                 prism_buffer_create(ctx, 4, &b));
  cr_assert_str_eq(prism_context_device_name(ctx), "");
  cr_assert_eq(prism_context_supports(ctx, PRISM_U32), 0);
  cr_assert(strstr(prism_context_last_error(ctx), "not a live"));
  prism_context_destroy(ctx); /* twice: nothing happens */
}

/* ---- Two threads, one context -------------------------------------------- */

typedef struct sorter {
  prism_context *ctx;
  prism_buffer *keys;
  _Atomic int done;
  int rounds;
  prism_status st;
} sorter;

static uint32_t key_of(uint32_t i) {
  return (i * 2654435761u) ^ (i >> 3);
}

/* Each call again while the other thread is inside one. */
static prism_status until_entered(sorter *s, int finish) {
  prism_status st;
  do
    st = finish ? prism_context_finish(s->ctx)
                : prism_sort_keys(s->ctx, PRISM_U32, s->keys, s->keys, SORT_N,
                                  NULL);
  while (st == PRISM_CONTEXT_BUSY);
  return st;
}

static void *sort_rounds(void *arg) {
  sorter *s = arg;
  for (int r = 0; r < s->rounds && s->st == PRISM_OK; r++)
    if ((s->st = until_entered(s, 0)) == PRISM_OK)
      s->st = until_entered(s, 1);
  s->done = 1;
  return NULL;
}

static int cmp_u32(const void *a, const void *b) {
  uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
  return (x > y) - (x < y);
}

Test(misuse, two_threads_one_context, .timeout = 600) {
  prism_context *ctx = harness_context();
  uint32_t *keys = harness_malloc(SORT_N * sizeof *keys);
  for (uint32_t i = 0; i < SORT_N; i++)
    keys[i] = key_of(i);
  uint32_t small[100], sum;
  for (uint32_t i = 0; i < 100; i++)
    small[i] = i + 1;
  prism_buffer *mine = harness_upload(ctx, small, sizeof small);
  long busy = 0, ok = 0;
  time_t start = time(NULL);
  /* Until the other thread has been caught inside a call a few times. */
  while (busy < 3 && time(NULL) - start < 120) {
    sorter s = {ctx, harness_upload(ctx, keys, SORT_N * sizeof *keys), 0, 8,
                PRISM_OK};
    pthread_t t;
    cr_assert_eq(pthread_create(&t, NULL, sort_rounds, &s), 0);
    while (!s.done) {
      prism_status st =
          prism_reduce(ctx, PRISM_U32, PRISM_SUM, mine, 100, &sum);
      if (st == PRISM_CONTEXT_BUSY) {
        busy++;
        cr_assert(strstr(prism_last_error(), "another thread"), "%s",
                  prism_last_error());
        continue;
      }
      cr_assert_eq(st, PRISM_OK, "%s: %s", prism_status_name(st),
                   prism_last_error());
      cr_assert_eq(sum, 5050, "a reduce beside another thread's sort");
      ok++;
      /* A buffer made and destroyed meanwhile: destroy waits its turn. */
      prism_buffer *tmp = NULL;
      if (prism_buffer_create(ctx, 64, &tmp) == PRISM_OK)
        prism_buffer_destroy(tmp);
    }
    pthread_join(t, NULL);
    cr_assert_eq(s.st, PRISM_OK, "sort: %s (%s)", prism_status_name(s.st),
                 prism_context_last_error(ctx));
    uint32_t *got = harness_download(s.keys);
    qsort(keys, SORT_N, sizeof *keys, cmp_u32);
    cr_assert(memcmp(got, keys, SORT_N * sizeof *keys) == 0,
              "the sort beside the other thread is wrong");
    free(got);
    prism_buffer_destroy(s.keys);
  }
  cr_assert_gt(busy, 0, "no call was ever made while the other was inside");
  cr_log_info("%ld calls refused as busy, %ld ran", busy, ok);
  prism_buffer_destroy(mine);
  harness_assert_alive(ctx, "two threads");
  free(keys);
  prism_context_destroy(ctx);
}
