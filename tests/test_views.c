/* SPDX-License-Identifier: MIT */
/*
 * Views and events on every backend.
 *
 * Views: ranges, views of views, lifetime, reads and writes at any byte,
 * and every primitive run through views and compared byte for byte with
 * the same call on whole buffers: each argument a view in a buffer of its
 * own at an odd element offset (no 16-byte alignment: the scalar paths), at
 * a 64-byte offset (the vector paths), and all arguments carved from one
 * buffer (overlap checks decided on ranges, not handles). Nothing outside a
 * view may change. In place through two view handles of one range.
 * Events: record, query, wait, ordering against another context, and bad
 * handles.
 */
#include "harness.h"
#include "ref_bfs.h"
#include "vectors.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int harness_needs_backend = 1;

#define GUARD 64 /* poisoned bytes on both sides of a view */
#define MAX_ARGS 6
#define N 30011 /* several tiles on every device, not a multiple of any */

/* ---- Views: the handle itself ------------------------------------------- */

Test(views, ranges_and_offsets) {
  prism_context *ctx = harness_context();
  unsigned char host[256];
  for (int i = 0; i < 256; i++)
    host[i] = (unsigned char)i;
  prism_buffer *b = harness_upload(ctx, host, sizeof host);
  prism_buffer *v = NULL, *vv = NULL, *end = NULL;
  HARNESS_OK(ctx, prism_buffer_view(b, 3, 100, &v));
  cr_assert_eq(prism_buffer_size(v), 100);
  cr_assert_eq(prism_buffer_context(v), ctx);
  HARNESS_OK(ctx, prism_buffer_view(v, 5, 50, &vv));
  cr_assert_eq(prism_buffer_size(vv), 50);

  /* Reads count from the view's start, at any byte. */
  unsigned char got[50];
  HARNESS_OK(ctx, prism_buffer_read(vv, 0, got, sizeof got));
  for (int i = 0; i < 50; i++)
    cr_assert_eq(got[i], (unsigned char)(8 + i));
  HARNESS_OK(ctx, prism_buffer_read(v, 1, got, 7));
  cr_assert_eq(got[0], 4);

  /* Writes through a view land in the parent. */
  const unsigned char ones[3] = {0xF1, 0xF2, 0xF3};
  HARNESS_OK(ctx, prism_buffer_write(vv, 1, ones, sizeof ones));
  unsigned char *all = harness_download(b);
  cr_assert(all[8] == 8 && all[9] == 0xF1 && all[11] == 0xF3 && all[12] == 12);
  free(all);

  /* The native handle: one memory, the offsets add up. */
  void *nb = NULL, *nv = NULL, *nvv = NULL;
  size_t ob = 1, ov = 0, ovv = 0;
  HARNESS_OK(ctx, prism_buffer_native(b, &nb, &ob));
  HARNESS_OK(ctx, prism_buffer_native(v, &nv, &ov));
  HARNESS_OK(ctx, prism_buffer_native(vv, &nvv, NULL));
  HARNESS_OK(ctx, prism_buffer_native(vv, NULL, &ovv));
  cr_assert(nb && nb == nv && nv == nvv);
  cr_assert(ob == 0 && ov == 3 && ovv == 8);

  /* A view may end at the parent's end, or be empty there. */
  HARNESS_OK(ctx, prism_buffer_view(b, 200, 56, &end));
  prism_buffer_destroy(end);
  HARNESS_OK(ctx, prism_buffer_view(b, 256, 0, &end));
  cr_assert_eq(prism_buffer_size(end), 0);
  prism_buffer_destroy(end);

  /* Past the end, overflowing, NULLs, destroyed parents. */
  end = (prism_buffer *)&end;
  HARNESS_EXPECT(ctx, PRISM_BUFFER_TOO_SMALL, "parent",
                 prism_buffer_view(b, 200, 57, &end));
  cr_assert_null(end);
  HARNESS_EXPECT(ctx, PRISM_BUFFER_TOO_SMALL, "parent",
                 prism_buffer_view(b, 257, 0, &end));
  HARNESS_EXPECT(ctx, PRISM_BUFFER_TOO_SMALL, "parent",
                 prism_buffer_view(b, SIZE_MAX, 2, &end));
  HARNESS_EXPECT(ctx, PRISM_BUFFER_TOO_SMALL, "parent",
                 prism_buffer_view(v, 1, SIZE_MAX, &end));
  HARNESS_EXPECT(ctx, PRISM_BUFFER_TOO_SMALL, "parent",
                 prism_buffer_view(vv, 0, 51, &end));
  HARNESS_EXPECT(ctx, PRISM_NULL_POINTER, "out",
                 prism_buffer_view(b, 0, 1, NULL));
  HARNESS_EXPECT(NULL, PRISM_NULL_POINTER, "parent",
                 prism_buffer_view(NULL, 0, 1, &end));
  HARNESS_EXPECT(NULL, PRISM_NULL_POINTER, "buf",
                 prism_buffer_native(NULL, &nb, &ob));
  prism_buffer *dead = harness_upload(ctx, host, 16);
  prism_buffer_destroy(dead);
  HARNESS_EXPECT(NULL, PRISM_INVALID_ARGUMENT, "not a live prism buffer",
                 prism_buffer_view(dead, 0, 1, &end));
  HARNESS_EXPECT(NULL, PRISM_INVALID_ARGUMENT, "not a live prism buffer",
                 prism_buffer_native(dead, &nb, &ob));
  /* A view's range is checked like a buffer's. */
  HARNESS_EXPECT(ctx, PRISM_BUFFER_TOO_SMALL, "src",
                 prism_buffer_read(vv, 1, got, 50));

  /* Fills: the pattern size counts from the allocation's start. */
  const uint32_t word = 0x01020304u;
  HARNESS_EXPECT(ctx, PRISM_INVALID_ARGUMENT, "pattern_size",
                 prism_buffer_fill(v, 1, &word, 4, 8));
  HARNESS_OK(ctx, prism_buffer_fill(v, 1, &word, 1, 8));
  HARNESS_OK(ctx, prism_buffer_fill(vv, 0, &word, 4, 8));

  /* An empty buffer's view. */
  prism_buffer *empty = NULL, *ev = NULL;
  HARNESS_OK(ctx, prism_buffer_create(ctx, 0, &empty));
  HARNESS_OK(ctx, prism_buffer_view(empty, 0, 0, &ev));
  HARNESS_OK(ctx, prism_buffer_native(ev, &nb, &ob));
  cr_assert(nb == NULL && ob == 0);
  prism_buffer_destroy(ev);
  prism_buffer_destroy(empty);

  prism_buffer_destroy(vv);
  prism_buffer_destroy(v);
  prism_buffer_destroy(b);
  prism_context_destroy(ctx);
}

/* The memory stays while any handle on it lives. */
Test(views, lifetime) {
  prism_context *ctx = harness_context();
  uint32_t host[1000];
  for (uint32_t i = 0; i < 1000; i++)
    host[i] = 1000 - i;
  prism_buffer *b = harness_upload(ctx, host, sizeof host);
  prism_buffer *v = NULL, *vv = NULL, *kept = NULL;
  HARNESS_OK(ctx, prism_buffer_view(b, 400, 2400, &v));
  HARNESS_OK(ctx, prism_buffer_view(v, 0, 400, &vv));
  prism_buffer_destroy(b);
  cr_assert_eq(prism_buffer_size(b), 0);
  uint64_t sum = 0;
  HARNESS_OK(ctx, prism_reduce(ctx, PRISM_U32, PRISM_SUM, v, 600, &sum));
  uint64_t want = 0;
  for (int i = 100; i < 700; i++)
    want += host[i];
  cr_assert_eq(sum & 0xFFFFFFFFu, want & 0xFFFFFFFFu);
  prism_buffer_destroy(v);
  HARNESS_OK(ctx, prism_sort_keys(ctx, PRISM_U32, vv, vv, 100, NULL));
  uint32_t got[100];
  HARNESS_OK(ctx, prism_buffer_read(vv, 0, got, sizeof got));
  for (int i = 0; i < 100; i++)
    cr_assert_eq(got[i], host[199 - i]);
  /* Views left on the context go with it. */
  HARNESS_OK(ctx, prism_buffer_view(vv, 4, 8, &kept));
  prism_context_destroy(ctx);
  cr_assert_eq(prism_buffer_size(vv), 0);
  cr_assert_eq(prism_buffer_size(kept), 0);
  prism_buffer_destroy(kept);
  prism_buffer_destroy(vv);
}

/* ---- Every primitive through views --------------------------------------- */

typedef struct arg {
  void *host; /* initial content (owned by the case) */
  size_t bytes;
  size_t elem; /* element size: views start on a multiple of it */
  int loose;   /* any valid result (BFS parents): the case's check decides */
} arg;

typedef struct call call;
struct call {
  const char *name;
  int nargs;
  arg args[MAX_ARGS];
  size_t n;
  prism_csr csr; /* bfs */
  prism_graph *graph;
  /* Runs the primitive on b; host results (counts, sums) into *scalar. */
  prism_status (*run)(prism_context *ctx, const call *c, prism_buffer **b,
                      uint64_t *scalar);
  /* For loose arguments: checks the downloaded arguments, or NULL. */
  void (*check)(const call *c, unsigned char **got, const char *what);
};

static void *random_bytes(size_t bytes, uint64_t seed, unsigned mod) {
  unsigned char *p = harness_malloc(bytes);
  for (size_t i = 0; i < bytes; i++) {
    const uint64_t x = vec_next(&seed) >> 24;
    p[i] = (unsigned char)(mod ? x % mod : x);
  }
  return p;
}

static arg words(size_t n, size_t elem, uint64_t seed) {
  arg a = {random_bytes(n * elem, seed, 0), n * elem, elem, 0};
  return a;
}

/* Small values (of u32 elements): repeats for unique, few histogram bins. */
static arg small_u32(size_t n, uint64_t seed, uint32_t mod) {
  uint32_t *p = harness_malloc(n * sizeof *p);
  unsigned char *r = random_bytes(n, seed, 0);
  for (size_t i = 0; i < n; i++)
    p[i] = (uint32_t)((r[i] / 64u + i / 7) % mod);
  free(r);
  arg a = {p, n * sizeof *p, sizeof *p, 0};
  return a;
}

static arg flags_u8(size_t n, uint64_t seed) {
  arg a = {random_bytes(n, seed, 2), n, 1, 0};
  return a;
}

static arg zeros(size_t bytes, size_t elem) {
  arg a = {calloc(1, bytes ? bytes : 1), bytes, elem, 0};
  cr_assert_not_null(a.host);
  return a;
}

/* A permutation of 0..n-1 as u32 indices. */
static arg permutation(size_t n, uint64_t seed) {
  uint32_t *p = harness_malloc(n * sizeof *p);
  for (size_t i = 0; i < n; i++)
    p[i] = (uint32_t)i;
  uint64_t s = seed + 7;
  for (size_t i = n - 1; i > 0; i--) {
    s ^= s << 13, s ^= s >> 7, s ^= s << 17;
    size_t j = (size_t)(s % (i + 1));
    uint32_t t = p[i];
    p[i] = p[j];
    p[j] = t;
  }
  arg a = {p, n * sizeof *p, sizeof *p, 0};
  return a;
}

/* num_segments + 1 ascending offsets over n, of width elem (4 or 8). */
static arg offsets(size_t n, size_t segments, size_t elem) {
  unsigned char *p = harness_malloc((segments + 1) * elem);
  for (size_t s = 0; s <= segments; s++) {
    uint64_t o = s == segments ? n : (uint64_t)s * n / segments - (s % 3);
    if (s == 0)
      o = 0;
    if (elem == 4) {
      uint32_t w = (uint32_t)o;
      memcpy(p + s * 4, &w, 4);
    } else {
      memcpy(p + s * 8, &o, 8);
    }
  }
  arg a = {p, (segments + 1) * elem, elem, 0};
  return a;
}

#define SEGMENTS 97

static prism_status run_reduce(prism_context *ctx, const call *c,
                               prism_buffer **b, uint64_t *scalar) {
  uint32_t r = 0;
  prism_status st = prism_reduce(ctx, PRISM_U32, PRISM_SUM, b[0], c->n, &r);
  *scalar = r;
  if (st == PRISM_OK)
    st = prism_reduce_to_buffer(ctx, PRISM_I64, PRISM_MAX, b[1], c->n, b[2]);
  return st;
}

static prism_status run_scan(prism_context *ctx, const call *c,
                             prism_buffer **b, uint64_t *scalar) {
  (void)scalar;
  prism_status st =
      prism_scan(ctx, PRISM_I32, PRISM_SUM, PRISM_EXCLUSIVE, b[0], b[1], c->n);
  if (st == PRISM_OK) /* in place */
    st = prism_scan(ctx, PRISM_U64, PRISM_MAX, PRISM_INCLUSIVE, b[2], b[2],
                    c->n);
  return st;
}

static prism_status run_sort_keys(prism_context *ctx, const call *c,
                                  prism_buffer **b, uint64_t *scalar) {
  (void)scalar;
  prism_status st = prism_sort_keys(ctx, PRISM_U64, b[0], b[1], c->n, NULL);
  if (st == PRISM_OK) /* in place */
    st = prism_sort_keys(ctx, PRISM_F32, b[2], b[2], c->n, NULL);
  return st;
}

static prism_status run_sort_pairs(prism_context *ctx, const call *c,
                                   prism_buffer **b, uint64_t *scalar) {
  (void)scalar;
  prism_sort_options o;
  prism_sort_options_init(&o, PRISM_U32);
  o.order = PRISM_DESCENDING;
  return prism_sort_pairs(ctx, PRISM_U32, b[0], b[1], b[2], b[3], 8, c->n, &o);
}

static prism_status run_gather_scatter(prism_context *ctx, const call *c,
                                       prism_buffer **b, uint64_t *scalar) {
  size_t bad = 0;
  prism_status st =
      prism_gather(ctx, 4, b[0], c->n, PRISM_U32, b[1], b[2], c->n, 1, &bad);
  *scalar = bad;
  if (st == PRISM_OK)
    st =
        prism_scatter(ctx, 8, b[3], PRISM_U32, b[1], b[4], c->n, c->n, 0, NULL);
  return st;
}

static prism_status run_histogram(prism_context *ctx, const call *c,
                                  prism_buffer **b, uint64_t *scalar) {
  (void)scalar;
  prism_status st = prism_histogram_even(ctx, PRISM_U8, b[0], c->n, 256, 0, 256,
                                         PRISM_U32, b[1]);
  if (st == PRISM_OK)
    st = prism_histogram_even(ctx, PRISM_U32, b[2], c->n, 50, 0, 100, PRISM_U64,
                              b[3]);
  return st;
}

static prism_status run_select(prism_context *ctx, const call *c,
                               prism_buffer **b, uint64_t *scalar) {
  size_t kept = 0;
  prism_status st = prism_select_flagged(ctx, PRISM_U32, b[0], PRISM_U8, b[1],
                                         b[2], c->n, b[3], &kept);
  *scalar = kept;
  return st;
}

static prism_status run_select_if(prism_context *ctx, const call *c,
                                  prism_buffer **b, uint64_t *scalar) {
  const prism_predicate p = {PRISM_LESS, {.u32 = 20}, {.u32 = 0}};
  size_t kept = 0;
  prism_status st =
      prism_partition_if(ctx, PRISM_U32, b[0], &p, b[1], c->n, b[2], &kept);
  *scalar = kept;
  if (st == PRISM_OK)
    st = prism_unique(ctx, PRISM_U32, b[0], b[3], c->n, NULL, &kept);
  *scalar += kept << 32;
  return st;
}

static prism_status run_segmented(prism_context *ctx, const call *c,
                                  prism_buffer **b, uint64_t *scalar) {
  (void)scalar;
  prism_status st =
      prism_segmented_scan_flags(ctx, PRISM_U32, PRISM_SUM, PRISM_INCLUSIVE,
                                 b[0], PRISM_U8, b[1], b[2], c->n);
  if (st == PRISM_OK)
    st = prism_segmented_scan_offsets(ctx, PRISM_U32, PRISM_MAX,
                                      PRISM_EXCLUSIVE, b[0], b[2], c->n,
                                      PRISM_U32, b[3], SEGMENTS, 1, NULL);
  if (st == PRISM_OK)
    st = prism_segmented_reduce(ctx, PRISM_U32, PRISM_SUM, b[0], c->n,
                                PRISM_U64, b[4], SEGMENTS, b[5], 1, NULL);
  return st;
}

static prism_status run_bfs(prism_context *ctx, const call *c, prism_buffer **b,
                            uint64_t *scalar) {
  prism_bfs_result r;
  prism_status st = prism_bfs(ctx, c->graph, 5, b[0], b[1], NULL, &r);
  *scalar = r.reached;
  return st;
}

static void check_bfs(const call *c, unsigned char **got, const char *what) {
  char msg[256] = "";
  cr_assert(ref_bfs_validate(&c->csr, 5, (const int32_t *)got[0],
                             (const int32_t *)got[1], msg, sizeof msg),
            "bfs, %s: %s", what, msg);
}

/* Where argument i of c goes in layout L: its own parent (0: an odd element
 * offset, never 16-byte aligned; 1: 64 bytes in), or one shared parent (2:
 * the arguments one after another, each at an odd element offset past a
 * guard). Returns the parent's size. */
static size_t place(const call *c, int layout, size_t *at) {
  size_t end = 0;
  for (int i = 0; i < c->nargs; i++) {
    const size_t e = c->args[i].elem;
    if (layout == 0)
      at[i] = e * (2 * (size_t)i + 1) + (e < GUARD ? GUARD / e * e : 0);
    else if (layout == 1)
      at[i] = 64;
    else
      at[i] = (end + GUARD + 15) / 16 * 16 + e;
    if (layout == 2)
      end = at[i] + c->args[i].bytes;
  }
  return end + GUARD;
}

static void through_views(prism_context *ctx, call *c) {
  prism_buffer *whole[MAX_ARGS];
  unsigned char *want[MAX_ARGS];
  uint64_t want_scalar = 0;
  for (int i = 0; i < c->nargs; i++)
    whole[i] = harness_upload(ctx, c->args[i].host, c->args[i].bytes);
  HARNESS_OK(ctx, c->run(ctx, c, whole, &want_scalar));
  for (int i = 0; i < c->nargs; i++) {
    want[i] = harness_download(whole[i]);
    prism_buffer_destroy(whole[i]);
  }

  for (int layout = 0; layout < 3; layout++) {
    size_t at[MAX_ARGS];
    const size_t shared = place(c, layout, at);
    prism_buffer *parent[MAX_ARGS] = {NULL}, *view[MAX_ARGS];
    for (int i = 0; i < c->nargs; i++) {
      const size_t bytes = c->args[i].bytes;
      if (layout < 2 || i == 0)
        parent[i] =
            harness_poisoned(ctx, layout < 2 ? at[i] + bytes + GUARD : shared);
      prism_buffer *p = parent[layout < 2 ? i : 0];
      HARNESS_OK(ctx, prism_buffer_view(p, at[i], bytes, &view[i]));
      HARNESS_OK(ctx, prism_buffer_write(view[i], 0, c->args[i].host, bytes));
    }
    uint64_t scalar = 0;
    prism_status st = c->run(ctx, c, view, &scalar);
    cr_assert_eq(st, PRISM_OK, "%s, layout %d: %s: %s", c->name, layout,
                 prism_status_name(st), prism_context_last_error(ctx));
    cr_assert_eq(scalar, want_scalar,
                 "%s, layout %d: host result %llu, want %llu", c->name, layout,
                 (unsigned long long)scalar, (unsigned long long)want_scalar);
    unsigned char *got[MAX_ARGS];
    for (int i = 0; i < c->nargs; i++) {
      got[i] = harness_download(view[i]);
      for (size_t k = 0; !c->args[i].loose && k < c->args[i].bytes; k++)
        cr_assert_eq(got[i][k], want[i][k],
                     "%s, layout %d: argument %d byte %zu is %u, whole "
                     "buffers give %u",
                     c->name, layout, i, k, got[i][k], want[i][k]);
    }
    if (c->check) {
      char what[32];
      snprintf(what, sizeof what, "layout %d", layout);
      c->check(c, got, what);
    }
    for (int i = 0; i < c->nargs; i++)
      free(got[i]);
    /* Outside the views: still poison. */
    for (int p = 0; p < (layout < 2 ? c->nargs : 1); p++) {
      unsigned char *all = harness_download(parent[p]);
      const size_t size = prism_buffer_size(parent[p]);
      for (size_t k = 0; k < size; k++) {
        int inside = 0;
        for (int i = 0; i < c->nargs; i++)
          if ((layout == 2 || i == p) && k >= at[i] &&
              k < at[i] + c->args[i].bytes)
            inside = 1;
        cr_assert(inside || all[k] == HARNESS_POISON,
                  "%s, layout %d: byte %zu outside every view changed", c->name,
                  layout, k);
      }
      free(all);
    }
    for (int i = 0; i < c->nargs; i++) {
      prism_buffer_destroy(view[i]);
      prism_buffer_destroy(parent[i]);
    }
  }
  for (int i = 0; i < c->nargs; i++) {
    free(want[i]);
    free(c->args[i].host);
  }
}

Test(views, reduce) {
  prism_context *ctx = harness_context();
  call c = {"reduce",   3,   {words(N, 4, 1), words(N, 8, 2), zeros(8, 8)},
            N,          {0}, NULL,
            run_reduce, NULL};
  through_views(ctx, &c);
  prism_context_destroy(ctx);
}

Test(views, scan) {
  prism_context *ctx = harness_context();
  call c = {"scan",   3,   {words(N, 4, 3), zeros(N * 4, 4), words(N, 8, 4)},
            N,        {0}, NULL,
            run_scan, NULL};
  through_views(ctx, &c);
  prism_context_destroy(ctx);
}

Test(views, sort_keys) {
  prism_context *ctx = harness_context();
  call c = {"sort_keys",
            3,
            {words(N, 8, 5), zeros(N * 8, 8), words(N, 4, 6)},
            N,
            {0},
            NULL,
            run_sort_keys,
            NULL};
  through_views(ctx, &c);
  prism_context_destroy(ctx);
}

Test(views, sort_pairs) {
  prism_context *ctx = harness_context();
  call c = {
      "sort_pairs",
      4,
      {small_u32(N, 7, 1000), zeros(N * 4, 4), words(N, 8, 8), zeros(N * 8, 8)},
      N,
      {0},
      NULL,
      run_sort_pairs,
      NULL};
  through_views(ctx, &c);
  prism_context_destroy(ctx);
}

Test(views, gather_scatter) {
  prism_context *ctx = harness_context();
  call c = {"gather_scatter",
            5,
            {words(N, 4, 9), permutation(N, 10), zeros(N * 4, 4),
             words(N, 8, 11), zeros(N * 8, 8)},
            N,
            {0},
            NULL,
            run_gather_scatter,
            NULL};
  through_views(ctx, &c);
  prism_context_destroy(ctx);
}

Test(views, histogram) {
  prism_context *ctx = harness_context();
  call c = {"histogram",
            4,
            {words(N, 1, 12), zeros(256 * 4, 4), small_u32(N, 13, 120),
             zeros(50 * 8, 8)},
            N,
            {0},
            NULL,
            run_histogram,
            NULL};
  through_views(ctx, &c);
  prism_context_destroy(ctx);
}

Test(views, select) {
  prism_context *ctx = harness_context();
  call c = {"select",
            4,
            {words(N, 4, 14), flags_u8(N, 15), zeros(N * 4, 4), zeros(8, 8)},
            N,
            {0},
            NULL,
            run_select,
            NULL};
  through_views(ctx, &c);
  call d = {
      "partition_if, unique",
      4,
      {small_u32(N, 16, 40), zeros(N * 4, 4), zeros(8, 8), zeros(N * 4, 4)},
      N,
      {0},
      NULL,
      run_select_if,
      NULL};
  through_views(ctx, &d);
  prism_context_destroy(ctx);
}

Test(views, segmented) {
  prism_context *ctx = harness_context();
  call c = {"segmented",
            6,
            {small_u32(N, 17, 1000), flags_u8(N, 18), zeros(N * 4, 4),
             offsets(N, SEGMENTS, 4), offsets(N, SEGMENTS, 8),
             zeros(SEGMENTS * 4, 4)},
            N,
            {0},
            NULL,
            run_segmented,
            NULL};
  through_views(ctx, &c);
  prism_context_destroy(ctx);
}

Test(views, bfs) {
  prism_context *ctx = harness_context();
  call c = {"bfs", 0, {{0}}, 0, {0}, NULL, run_bfs, check_bfs};
  cr_assert_eq(prism_csr_rmat(12, 8, 3, &c.csr), PRISM_OK);
  HARNESS_OK(ctx, prism_graph_create(ctx, &c.csr, &c.graph));
  const size_t n = c.csr.num_vertices;
  c.nargs = 2;
  c.args[0] = zeros(n * 4, 4);
  c.args[1] = zeros(n * 4, 4);
  c.args[1].loose = 1;
  c.n = n;
  through_views(ctx, &c);
  prism_graph_destroy(c.graph);
  prism_csr_free(&c.csr);
  prism_context_destroy(ctx);
}

/* In place through two handles on one range; a shifted range is refused. */
Test(views, in_place_through_two_views) {
  prism_context *ctx = harness_context();
  const size_t n = 5000;
  uint32_t *host = harness_malloc(n * 4 + 64), *got = harness_malloc(n * 4);
  for (size_t i = 0; i < n + 16; i++)
    host[i] = (uint32_t)((i * 2654435761u) >> 7);
  prism_buffer *b = harness_upload(ctx, host, n * 4 + 64);
  prism_buffer *x = NULL, *y = NULL, *z = NULL;
  HARNESS_OK(ctx, prism_buffer_view(b, 4, n * 4, &x));
  HARNESS_OK(ctx, prism_buffer_view(b, 4, n * 4, &y));
  HARNESS_OK(ctx, prism_buffer_view(b, 8, n * 4, &z));
  HARNESS_EXPECT(ctx, PRISM_INVALID_ARGUMENT, "keys_in and keys_out",
                 prism_sort_keys(ctx, PRISM_U32, x, z, n - 1, NULL));
  HARNESS_EXPECT(
      ctx, PRISM_INVALID_ARGUMENT, "in and out",
      prism_scan(ctx, PRISM_U32, PRISM_SUM, PRISM_INCLUSIVE, z, x, n - 1));
  HARNESS_OK(ctx, prism_sort_keys(ctx, PRISM_U32, x, y, n - 1, NULL));
  HARNESS_OK(ctx, prism_buffer_read(y, 0, got, (n - 1) * 4));
  for (size_t i = 1; i + 1 < n; i++)
    cr_assert_leq(got[i - 1], got[i]);
  HARNESS_OK(
      ctx, prism_scan(ctx, PRISM_U32, PRISM_MAX, PRISM_INCLUSIVE, y, x, n - 1));
  HARNESS_OK(ctx, prism_buffer_read(b, 0, got, 4));
  cr_assert_eq(got[0], host[0], "the word before the views changed");
  prism_buffer_destroy(z);
  prism_buffer_destroy(y);
  prism_buffer_destroy(x);
  prism_buffer_destroy(b);
  free(got);
  free(host);
  prism_context_destroy(ctx);
}

/* ---- Events -------------------------------------------------------------- */

Test(events, record_query_wait) {
  prism_context *ctx = harness_context();
  const size_t n = 200000;
  uint32_t *host = harness_malloc(n * 4);
  for (size_t i = 0; i < n; i++)
    host[i] = (uint32_t)(n - i);
  prism_buffer *b = harness_upload(ctx, host, n * 4);
  HARNESS_OK(ctx, prism_sort_keys(ctx, PRISM_U32, b, b, n, NULL));
  prism_event *ev = NULL;
  HARNESS_OK(ctx, prism_event_record(ctx, &ev));
  cr_assert_not_null(ev);
  int done = -1;
  HARNESS_OK(ctx, prism_event_query(ev, &done));
  cr_assert(done == 0 || done == 1);
  HARNESS_OK(ctx, prism_event_wait(ev));
  HARNESS_OK(ctx, prism_event_query(ev, &done));
  cr_assert_eq(done, 1);
  /* The context's own queue after its own event: always allowed. */
  HARNESS_OK(ctx, prism_context_wait_event(ctx, ev));
  uint32_t first = 0;
  HARNESS_OK(ctx, prism_buffer_read(b, 0, &first, 4));
  cr_assert_eq(first, 1);
  HARNESS_EXPECT(ctx, PRISM_NULL_POINTER, "done", prism_event_query(ev, NULL));
  HARNESS_EXPECT(ctx, PRISM_NULL_POINTER, "out", prism_event_record(ctx, NULL));
  HARNESS_EXPECT(NULL, PRISM_NULL_POINTER, "event", prism_event_wait(NULL));
  HARNESS_EXPECT(ctx, PRISM_NULL_POINTER, "event",
                 prism_context_wait_event(ctx, NULL));
  prism_event_destroy(ev);
  HARNESS_EXPECT(NULL, PRISM_INVALID_ARGUMENT, "not a live prism event",
                 prism_event_wait(ev));
  HARNESS_EXPECT(NULL, PRISM_INVALID_ARGUMENT, "not a live prism event",
                 prism_event_query(ev, &done));
  HARNESS_EXPECT(ctx, PRISM_INVALID_ARGUMENT, "not a live prism event",
                 prism_context_wait_event(ctx, ev));
  prism_event_destroy(ev); /* twice: nothing happens */
  prism_event_destroy(NULL);

  /* Events left on a context go with it. */
  prism_event *left = NULL;
  HARNESS_OK(ctx, prism_event_record(ctx, &left));
  prism_buffer_destroy(b);
  free(host);
  prism_context_destroy(ctx);
  HARNESS_EXPECT(NULL, PRISM_INVALID_ARGUMENT, "not a live prism event",
                 prism_event_wait(left));
}

/* Another context's event: CUDA orders any stream after any event; an
 * OpenCL queue can wait only for events of its own cl_context, and two
 * contexts prism made have two. */
Test(events, across_contexts) {
  prism_context *a = harness_context(), *b = harness_context();
  prism_event *ev = NULL;
  HARNESS_OK(a, prism_event_record(a, &ev));
  if (prism_context_backend(b) == PRISM_BACKEND_CUDA)
    HARNESS_OK(b, prism_context_wait_event(b, ev));
  else
    HARNESS_EXPECT(b, PRISM_CONTEXT_MISMATCH, "event",
                   prism_context_wait_event(b, ev));
  uint32_t one = 1, r = 0;
  prism_buffer *x = harness_upload(b, &one, 4);
  HARNESS_OK(b, prism_reduce(b, PRISM_U32, PRISM_SUM, x, 1, &r));
  cr_assert_eq(r, 1);
  prism_buffer_destroy(x);
  prism_event_destroy(ev);
  prism_context_destroy(b);
  prism_context_destroy(a);
}
