/* SPDX-License-Identifier: MIT */
/*
 * prism_graph_create and prism_bfs against the serial reference
 * (tests/ref_bfs.h): levels equal the serial BFS exactly, parents pass the
 * Graph500 checks, the counts equal the reference. Every named test graph,
 * from several sources, with and without parents, under four direction
 * settings: the defaults, pure top-down (alpha = 0), bottom-up from the
 * first step on, and bottom-up / top-down alternating (every switch back
 * converts the frontier); then long paths, larger grids and RMAT graphs,
 * and bad input.
 */
#include "harness.h"
#include "ref_bfs.h"
#include "vectors.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int harness_needs_backend = 1;

/* Direction settings. */
typedef struct setting {
  const char *name;
  double alpha, beta;
} setting;

static const setting default_setting = {"default", 15, 18};
static const setting top_down = {"top-down", 0, 18};
/* m_f * alpha > m_u whenever the frontier has an edge: bottom-up from step
 * 0; n_f * beta < n never: no way back. */
static const setting bottom_up = {"bottom-up", 1e30, 1e30};
/* Bottom-up after every top-down step, back as soon as the frontier
 * shrinks. */
static const setting alternating = {"alternating", 1e30, 0};

/* Bytes past the caller's n int32 that must stay untouched. */
#define GUARD_BYTES 64

static prism_graph *make_graph(prism_context *ctx, const prism_csr *csr) {
  prism_graph *g = NULL;
  HARNESS_OK(ctx, prism_graph_create(ctx, csr, &g));
  cr_assert_eq(prism_graph_vertices(g), csr->num_vertices);
  cr_assert_eq(prism_graph_edges(g), csr->num_edges);
  return g;
}

/* One search on the device, checked against the reference: levels exact,
 * parents (when asked) a valid BFS tree, counts equal, nothing written
 * past n entries of either buffer. */
static void check_search(prism_context *ctx, const prism_csr *csr,
                         prism_graph *g, size_t source, const setting *s,
                         int with_parents, const char *name) {
  const size_t n = csr->num_vertices, bytes = n * sizeof(int32_t);
  prism_buffer *levels = harness_poisoned(ctx, bytes + GUARD_BYTES);
  prism_buffer *parents =
      with_parents ? harness_poisoned(ctx, bytes + GUARD_BYTES) : NULL;
  prism_bfs_options options;
  prism_bfs_options_init(&options);
  options.alpha = s->alpha;
  options.beta = s->beta;
  prism_bfs_result result;
  prism_status st =
      prism_bfs(ctx, g, source, levels, parents, &options, &result);
  cr_assert_eq(st, PRISM_OK, "%s from %zu (%s%s): %s: %s", name, source,
               s->name, with_parents ? ", parents" : "", prism_status_name(st),
               prism_context_last_error(ctx));
  unsigned char *got_levels = harness_download(levels);
  unsigned char *got_parents = parents ? harness_download(parents) : NULL;
  char msg[256] = "";
  cr_assert(ref_bfs_validate(csr, source, (const int32_t *)got_levels,
                             (const int32_t *)got_parents, msg, sizeof msg),
            "%s from %zu (%s%s): %s", name, source, s->name,
            with_parents ? ", parents" : "", msg);
  cr_assert(ref_bfs_check_result(csr, source, &result, msg, sizeof msg),
            "%s from %zu (%s): %s", name, source, s->name, msg);
  for (size_t b = bytes; b < bytes + GUARD_BYTES; b++) {
    cr_assert_eq(got_levels[b], HARNESS_POISON,
                 "%s: levels written past n (byte %zu)", name, b);
    if (got_parents)
      cr_assert_eq(got_parents[b], HARNESS_POISON,
                   "%s: parents written past n (byte %zu)", name, b);
  }
  free(got_parents);
  free(got_levels);
  prism_buffer_destroy(parents);
  prism_buffer_destroy(levels);
}

/* Every named graph from vertex 0, the last vertex and one in the middle,
 * with and without parents; graphs of more than harness_max_n() vertices
 * are left out (an instrumented run's long path costs a launch per level). */
static void check_cases(const setting *s) {
  prism_context *ctx = harness_context();
  prism_csr csr;
  const char *name;
  const size_t max_n = harness_max_n();
  for (int i = 0; ref_graph_case(i, &csr, &name); i++) {
    const size_t n = csr.num_vertices;
    if (n > max_n) {
      prism_csr_free(&csr);
      continue;
    }
    prism_graph *g = make_graph(ctx, &csr);
    const size_t sources[] = {0, n - 1, n / 2};
    for (size_t k = 0; k < 3; k++) {
      if (k > 0 && (sources[k] == sources[k - 1] || sources[k] == 0))
        continue;
      check_search(ctx, &csr, g, sources[k], s, 1, name);
      check_search(ctx, &csr, g, sources[k], s, 0, name);
    }
    prism_graph_destroy(g);
    prism_csr_free(&csr);
  }
  prism_context_destroy(ctx);
}

Test(bfs, cases_default) {
  check_cases(&default_setting);
}

Test(bfs, cases_top_down) {
  check_cases(&top_down);
}

Test(bfs, cases_bottom_up) {
  check_cases(&bottom_up);
}

Test(bfs, cases_alternating) {
  check_cases(&alternating);
}

/* 10,000 levels: the level loop never leaves the device per level. */
Test(bfs, long_path) {
  prism_context *ctx = harness_context();
  prism_csr csr;
  HARNESS_OK(ctx, prism_csr_path(10000, &csr));
  prism_graph *g = make_graph(ctx, &csr);
  check_search(ctx, &csr, g, 0, &default_setting, 1, "path 10000");
  check_search(ctx, &csr, g, 6789, &alternating, 0, "path 10000");
  prism_graph_destroy(g);
  prism_csr_free(&csr);
  prism_context_destroy(ctx);
}

/* Larger graphs: a grid of some hundred levels, RMAT graphs whose hubs
 * span several items, a star whose hub is reached at level 1. */
Test(bfs, larger_graphs) {
  prism_context *ctx = harness_context();
  prism_csr csr;
  HARNESS_OK(ctx, prism_csr_grid(300, 170, &csr));
  prism_graph *g = make_graph(ctx, &csr);
  check_search(ctx, &csr, g, 0, &default_setting, 1, "grid 300 x 170");
  check_search(ctx, &csr, g, 300 * 85 + 150, &top_down, 0, "grid 300 x 170");
  prism_graph_destroy(g);
  prism_csr_free(&csr);

  const setting *settings[] = {&default_setting, &top_down, &bottom_up,
                               &alternating};
  HARNESS_OK(ctx, prism_csr_rmat(14, 16, 7, &csr));
  g = make_graph(ctx, &csr);
  for (int s = 0; s < 4; s++)
    check_search(ctx, &csr, g, (size_t)s * 4099, settings[s], s % 2, "rmat 14");
  prism_graph_destroy(g);
  prism_csr_free(&csr);

  HARNESS_OK(ctx, prism_csr_star(70000, &csr));
  g = make_graph(ctx, &csr);
  check_search(ctx, &csr, g, 12345, &default_setting, 1, "star 70000");
  check_search(ctx, &csr, g, 0, &top_down, 1, "star 70000");
  prism_graph_destroy(g);
  prism_csr_free(&csr);
  prism_context_destroy(ctx);
}

/* NULL options and result; back-to-back searches reuse the scratch. */
Test(bfs, defaults_and_reuse) {
  prism_context *ctx = harness_context();
  prism_csr csr;
  HARNESS_OK(ctx, prism_csr_rmat(9, 8, 3, &csr));
  prism_graph *g = make_graph(ctx, &csr);
  const size_t n = csr.num_vertices;
  prism_buffer *levels = harness_poisoned(ctx, n * sizeof(int32_t));
  int32_t *want = harness_malloc(n * sizeof *want);
  for (size_t source = 0; source < n; source += 37) {
    HARNESS_OK(ctx, prism_bfs(ctx, g, source, levels, NULL, NULL, NULL));
    int32_t *got = harness_download(levels);
    ref_bfs(&csr, source, want, NULL);
    cr_assert_arr_eq(got, want, n * sizeof *want, "levels from %zu", source);
    free(got);
  }
  free(want);
  prism_buffer_destroy(levels);
  prism_graph_destroy(g);
  prism_csr_free(&csr);
  prism_context_destroy(ctx);
}

Test(bfs, options_init) {
  prism_bfs_options o;
  prism_bfs_options_init(&o);
  cr_assert_eq(o.alpha, 15);
  cr_assert_eq(o.beta, 18);
  prism_bfs_options_init(NULL);
}

/* Each CSR rule, named with its first bad position. */
Test(bfs, bad_graphs) {
  prism_context *ctx = harness_context();
  uint64_t offsets[] = {0, 2, 3, 4};
  uint32_t cols[] = {1, 2, 0, 0};
  prism_csr csr = {3, 4, offsets, cols, 1};
  prism_graph *g = (prism_graph *)&csr; /* must be overwritten with NULL */
  HARNESS_EXPECT(NULL, PRISM_NULL_POINTER, "ctx",
                 prism_graph_create(NULL, &csr, &g));
  HARNESS_EXPECT(ctx, PRISM_NULL_POINTER, "out",
                 prism_graph_create(ctx, &csr, NULL));
  HARNESS_EXPECT(ctx, PRISM_NULL_POINTER, "csr",
                 prism_graph_create(ctx, NULL, &g));
  cr_assert_null(g);
  csr.num_vertices = 0;
  csr.num_edges = 0;
  HARNESS_EXPECT(ctx, PRISM_INVALID_ARGUMENT, "num_vertices is 0",
                 prism_graph_create(ctx, &csr, &g));
  csr.num_vertices = 3;
  csr.num_edges = 4;
  csr.row_offsets = NULL;
  HARNESS_EXPECT(ctx, PRISM_NULL_POINTER, "row_offsets",
                 prism_graph_create(ctx, &csr, &g));
  csr.row_offsets = offsets;
  csr.col_indices = NULL;
  HARNESS_EXPECT(ctx, PRISM_NULL_POINTER, "col_indices",
                 prism_graph_create(ctx, &csr, &g));
  csr.col_indices = cols;
  offsets[0] = 1;
  HARNESS_EXPECT(ctx, PRISM_INVALID_ARGUMENT, "row_offsets[0]",
                 prism_graph_create(ctx, &csr, &g));
  offsets[0] = 0;
  offsets[2] = 1;
  HARNESS_EXPECT(ctx, PRISM_INVALID_ARGUMENT, "row_offsets[2]",
                 prism_graph_create(ctx, &csr, &g));
  offsets[2] = 3;
  offsets[3] = 3;
  HARNESS_EXPECT(ctx, PRISM_INVALID_ARGUMENT, "row_offsets[3]",
                 prism_graph_create(ctx, &csr, &g));
  offsets[3] = 4;
  cols[2] = 3;
  HARNESS_EXPECT(ctx, PRISM_INVALID_ARGUMENT, "col_indices[2]",
                 prism_graph_create(ctx, &csr, &g));
  cr_assert_null(g);
  cols[2] = 0;
  /* Fixed, it works, and the context was usable throughout. */
  g = make_graph(ctx, &csr);
  prism_buffer *levels = harness_poisoned(ctx, 3 * sizeof(int32_t));
  prism_bfs_result r;
  HARNESS_OK(ctx, prism_bfs(ctx, g, 0, levels, NULL, NULL, &r));
  cr_assert_eq(r.reached, 3);
  cr_assert_eq(r.levels, 2);
  prism_graph_destroy(g);
  prism_graph_destroy(NULL);
  cr_assert_eq(prism_graph_vertices(NULL), 0);
  cr_assert_eq(prism_graph_edges(NULL), 0);
  prism_buffer_destroy(levels);
  prism_context_destroy(ctx);
}

/* Bad calls: clear status and message; nothing written; context usable. */
Test(bfs, bad_searches) {
  prism_context *ctx = harness_context(), *other = harness_context();
  prism_csr csr;
  HARNESS_OK(ctx, prism_csr_grid(5, 4, &csr));
  prism_graph *g = make_graph(ctx, &csr);
  prism_graph *foreign_graph = make_graph(other, &csr);
  const size_t bytes = 20 * sizeof(int32_t);
  prism_buffer *levels = harness_poisoned(ctx, bytes);
  prism_buffer *parents = harness_poisoned(ctx, bytes);
  prism_buffer *small = harness_poisoned(ctx, bytes - 4);
  prism_buffer *foreign = harness_poisoned(other, bytes);
  prism_bfs_options o;
  prism_bfs_options_init(&o);
  prism_bfs_result r;

  HARNESS_EXPECT(NULL, PRISM_NULL_POINTER, "ctx",
                 prism_bfs(NULL, g, 0, levels, parents, &o, &r));
  HARNESS_EXPECT(ctx, PRISM_NULL_POINTER, "graph",
                 prism_bfs(ctx, NULL, 0, levels, parents, &o, &r));
  HARNESS_EXPECT(ctx, PRISM_CONTEXT_MISMATCH, "graph",
                 prism_bfs(ctx, foreign_graph, 0, levels, parents, &o, &r));
  HARNESS_EXPECT(ctx, PRISM_INVALID_ARGUMENT, "source 20",
                 prism_bfs(ctx, g, 20, levels, parents, &o, &r));
  HARNESS_EXPECT(ctx, PRISM_INVALID_ARGUMENT, "source",
                 prism_bfs(ctx, g, SIZE_MAX, levels, parents, &o, &r));
  HARNESS_EXPECT(ctx, PRISM_NULL_POINTER, "levels",
                 prism_bfs(ctx, g, 0, NULL, parents, &o, &r));
  HARNESS_EXPECT(ctx, PRISM_BUFFER_TOO_SMALL, "levels",
                 prism_bfs(ctx, g, 0, small, parents, &o, &r));
  HARNESS_EXPECT(ctx, PRISM_BUFFER_TOO_SMALL, "parents",
                 prism_bfs(ctx, g, 0, levels, small, &o, &r));
  HARNESS_EXPECT(ctx, PRISM_CONTEXT_MISMATCH, "levels",
                 prism_bfs(ctx, g, 0, foreign, parents, &o, &r));
  HARNESS_EXPECT(ctx, PRISM_CONTEXT_MISMATCH, "parents",
                 prism_bfs(ctx, g, 0, levels, foreign, &o, &r));
  HARNESS_EXPECT(ctx, PRISM_INVALID_ARGUMENT, "same buffer",
                 prism_bfs(ctx, g, 0, levels, levels, &o, &r));
  o.alpha = NAN;
  HARNESS_EXPECT(ctx, PRISM_INVALID_ARGUMENT, "options->alpha",
                 prism_bfs(ctx, g, 0, levels, parents, &o, &r));
  o.alpha = -1;
  HARNESS_EXPECT(ctx, PRISM_INVALID_ARGUMENT, "options->alpha",
                 prism_bfs(ctx, g, 0, levels, parents, &o, &r));
  o.alpha = 15;
  o.beta = -INFINITY;
  HARNESS_EXPECT(ctx, PRISM_INVALID_ARGUMENT, "options->beta",
                 prism_bfs(ctx, g, 0, levels, parents, &o, &r));
  o.beta = NAN;
  HARNESS_EXPECT(ctx, PRISM_INVALID_ARGUMENT, "options->beta",
                 prism_bfs(ctx, g, 0, levels, parents, &o, &r));
  cr_assert_eq(r.reached, 0, "a failed call zeroes the result");

  /* Nothing was written by the failed calls. */
  unsigned char *untouched = harness_download(levels);
  for (size_t b = 0; b < bytes; b++)
    cr_assert_eq(untouched[b], HARNESS_POISON, "levels byte %zu written", b);
  free(untouched);

  /* Infinite options are fine, and the context still works. */
  o.alpha = INFINITY;
  o.beta = INFINITY;
  HARNESS_OK(ctx, prism_bfs(ctx, g, 7, levels, parents, &o, &r));
  int32_t *got = harness_download(levels);
  int32_t *got_parents = harness_download(parents);
  char msg[256];
  cr_assert(ref_bfs_validate(&csr, 7, got, got_parents, msg, sizeof msg), "%s",
            msg);
  cr_assert(ref_bfs_check_result(&csr, 7, &r, msg, sizeof msg), "%s", msg);
  free(got_parents);
  free(got);

  prism_buffer_destroy(foreign);
  prism_buffer_destroy(small);
  prism_buffer_destroy(parents);
  prism_buffer_destroy(levels);
  prism_graph_destroy(foreign_graph);
  prism_graph_destroy(g);
  prism_csr_free(&csr);
  prism_context_destroy(other);
  prism_context_destroy(ctx);
}
