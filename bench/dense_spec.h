/* SPDX-License-Identifier: MIT */
/*
 * The shapes of the dense rows (transpose, stencil, conv2d): --shapes
 * entries, extents slowest first with x between (numpy's order: the last
 * extent is the one contiguous in memory), or the `small` preset. Each
 * primitive reads the entries it takes: transpose RxC (a matrix of R rows)
 * and BxRxC (a batch of B of them); stencil N, NYxNX and NZxNYxNX (1-, 2-
 * and 3-D grids); conv2d NYxNX.
 */
#ifndef PRISM_BENCH_DENSE_SPEC_H
#define PRISM_BENCH_DENSE_SPEC_H

#include <stddef.h>

#define DENSE_MAX_DIMS 3
#define DENSE_MAX_SHAPES 32 /* shapes one primitive runs */
/* transpose without --element-size: a matrix with a side below this runs
 * at 4 bytes an element only (its rows are about the shape), the others
 * at 1, 2, 4 and 8. */
#define DENSE_SKINNY_SIDE 16

/* One --shapes entry. */
typedef struct dense_shape {
  unsigned dims; /* 1 to DENSE_MAX_DIMS; 0: the `small` preset */
  size_t extent[DENSE_MAX_DIMS]; /* extent[0] the slowest; dims of them */
} dense_shape;

/* Parse an entry: `small`, or 1 to 3 extents joined by x, each written
 * 8192, 2^13 or 10^8, whose product times 8 bytes fits in a size_t.
 * Returns 1, or 0 with what is wrong in msg. */
int dense_shape_parse(const char *entry, dense_shape *shape, char *msg,
                      size_t msg_size);

/* The rows' name of a shape: "16384x16384", "3x100000000". */
void dense_shape_name(const dense_shape *shape, char *buf, size_t size);

/* The product of the extents. */
size_t dense_shape_points(const dense_shape *shape);

/* A primitive's default shapes, as entries that parse: those of a run
 * that measures a GPU, of one that measures CPU devices only, and the
 * `small` preset's; each list ends with NULL. */
typedef struct dense_shape_defaults {
  const char *const *gpu;
  const char *const *cpu;
  const char *const *small;
} dense_shape_defaults;

/* The shapes a primitive runs, in order, into out (at most
 * DENSE_MAX_SHAPES): the --shapes entries with `small` expanded, or the
 * defaults (gpu: whether a GPU is measured). takes(dims) says which
 * entries are the primitive's; *left_out counts the --shapes entries it
 * does not take. */
int dense_shapes(const dense_shape *given, int given_count, int gpu,
                 const dense_shape_defaults *defaults,
                 int (*takes)(unsigned dims), dense_shape *out, int *left_out);

/* The longest name of a shape the primitive can run: of the --shapes
 * entries it takes (with `small`), or of either default list. */
size_t dense_shapes_widest(const dense_shape *given, int given_count,
                           const dense_shape_defaults *defaults,
                           int (*takes)(unsigned dims));

#endif /* PRISM_BENCH_DENSE_SPEC_H */
