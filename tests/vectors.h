/* SPDX-License-Identifier: MIT */
/*
 * Host-side test vectors shared by every backend: seeded generators, the
 * sizes every primitive is run at (edges of every block and tile size either
 * backend uses, powers of two and their neighbours, odd large sizes), and
 * the named small graphs the BFS and graph suites search.
 */
#ifndef PRISM_TESTS_VECTORS_H
#define PRISM_TESTS_VECTORS_H

#include "prism.h"

#include <stddef.h>
#include <stdint.h>

typedef enum vec_pattern {
  VEC_RANDOM,       /* full range integers; floats uniform in [-1, 1) */
  VEC_SMALL,        /* integers in [-100, 100]; floats integral (exact sums) */
  VEC_EXTREME,      /* type min/max and neighbours: sums wrap around */
  VEC_EQUAL,        /* one value repeated */
  VEC_ASCENDING,    /* sorted */
  VEC_DESCENDING,   /* reverse sorted */
  VEC_SPECIAL,      /* floats: NaN, +-inf, +-0.0, denormals among values */
  VEC_SIGNED_ZEROS, /* floats: only +0.0 and -0.0 */
  VEC_PATTERN_COUNT
} vec_pattern;

const char *vec_pattern_name(vec_pattern pattern);

/** Whether the pattern means anything for the type (float-only patterns). */
int vec_pattern_applies(vec_pattern pattern, prism_type type);

/** Fill n elements of type with the pattern, from seed. */
void vec_fill(prism_type type, vec_pattern pattern, uint64_t seed, void *out,
              size_t n);

/** The sizes every suite runs at, ascending, up to and including 10^6 + 3. */
extern const size_t vec_sizes[];
extern const size_t vec_sizes_count;

/** Larger sizes run on fewer combinations (2^24 + 1 and such). */
extern const size_t vec_large_sizes[];
extern const size_t vec_large_sizes_count;

/** splitmix64: a small, good, seedable generator. */
uint64_t vec_next(uint64_t *state);

/** How many graphs ref_graph_case builds. */
#define REF_GRAPH_CASES 11

/**
 * Build test graph i (0 <= i < REF_GRAPH_CASES) into *out (release with
 * prism_csr_free) and name it in *name (may be NULL). Every case is meant
 * to be searched from vertex 0, and may be from any other:
 *   one_vertex, source_without_edges (vertex 0 isolated, the rest a path),
 *   self_loops, duplicate_edges, disconnected (three components and
 *   isolated vertices), star (3000 vertices, hub 0), long_path (2500
 *   vertices), grid (61 x 37), rmat (scale 10, edge factor 16),
 *   directed (a small directed graph: from 0, vertices 4 and 6 are
 *   unreachable though the undirected graph would reach them), and
 *   directed_rmat (scale 11, each directed edge of an RMAT graph kept or
 *   dropped by a hash: reachability differs from the undirected graph).
 * Returns 1, or 0 with *out zeroed when i is out of range (so
 * `for (i = 0; ref_graph_case(i, &g, &name); i++)` visits all) or a
 * generator failed.
 */
int ref_graph_case(int i, prism_csr *out, const char **name);

#endif /* PRISM_TESTS_VECTORS_H */
