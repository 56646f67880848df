/* SPDX-License-Identifier: MIT */
/* Command line of prism-bench. */
#ifndef PRISM_BENCH_OPTIONS_H
#define PRISM_BENCH_OPTIONS_H

#include "dense_spec.h"
#include "primitive.h"
#include "prism.h"
#include "report.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define OPTIONS_MAX_ITEMS 64 /* entries in any one list option */
#define OPTIONS_NAME_SIZE 128
#define OPTIONS_MAX_GRAPHS 16  /* --graph entries */
#define OPTIONS_PATH_SIZE 1024 /* a --graph entry: a file path */

#define OPTIONS_MAX_MATRICES 16 /* spmv: --matrices and --matrix entries */

typedef struct bench_options {
  /* Primitives to run, in order; all of them when none are named. */
  const bench_primitive *primitives[OPTIONS_MAX_ITEMS];
  int primitive_count;
  int quick; /* the `quick` preset */

  /* Contexts: none of the three given means the environment's choice. */
  prism_backend backends[OPTIONS_MAX_ITEMS];
  int backend_count;
  char platforms[OPTIONS_MAX_ITEMS][OPTIONS_NAME_SIZE];
  int platform_count;
  int device; /* -1: not given */

  prism_type types[OPTIONS_MAX_ITEMS];
  int type_count;
  int types_defaulted; /* no --type: types holds the default (i32) */
  prism_op ops[OPTIONS_MAX_ITEMS];
  int op_count;
  prism_scan_kind kinds[OPTIONS_MAX_ITEMS];
  int kind_count;
  prism_order orders[OPTIONS_MAX_ITEMS]; /* sort */
  int order_count;
  size_t value_sizes[OPTIONS_MAX_ITEMS]; /* sort: 0 keys only, 4, 8 */
  int value_size_count;
  unsigned begin_bit, end_bit;    /* sort: --bits; end_bit 0: every bit */
  size_t bins[OPTIONS_MAX_ITEMS]; /* histograms */
  int bin_count;
  bench_dist dists[OPTIONS_MAX_ITEMS]; /* histograms */
  int dist_count;
  double keeps[OPTIONS_MAX_ITEMS]; /* compaction */
  int keep_count;
  /* Segmented: mean lengths, and how lengths spread (INPUT_SEGMENTS_*). */
  size_t segments[OPTIONS_MAX_ITEMS];
  int skews[OPTIONS_MAX_ITEMS];
  int segment_count;
  size_t ns[OPTIONS_MAX_ITEMS]; /* none: each device's default sweep */
  int n_count;
  /* topk: the keys chosen per row (none: prim_topk.c's defaults, each cut
   * to a row), and the rows the n keys are laid out in (none: 1). */
  size_t ks[OPTIONS_MAX_ITEMS];
  int k_count;
  size_t rows[OPTIONS_MAX_ITEMS];
  int row_count;

  /* bfs: graphs as --graph names them (graph_spec.h reads them), searches per
   * graph, whether to ask for (and validate) the BFS tree, whether edge-list
   * files are made undirected, and prism_bfs_options (-1: the library's
   * defaults). */
  char graphs[OPTIONS_MAX_GRAPHS][OPTIONS_PATH_SIZE];
  int graph_count;
  int sources;
  int parents;
  int symmetrize;
  double alpha, beta;

  /* spmv: matrices as --matrices names them and --matrix files, in the
   * order given (matrix_spec.h reads them; none: spmv.c's defaults), and
   * the beta of y = A x + beta y (--spmv-beta; default 0). */
  char matrices[OPTIONS_MAX_MATRICES][OPTIONS_PATH_SIZE];
  int matrix_files[OPTIONS_MAX_MATRICES]; /* 1: a --matrix file */
  int matrix_count;
  double spmv_beta;

  /* transpose, stencil, conv2d: --shapes entries in the order given (none:
   * each primitive's defaults), transpose's --element-size list, the
   * stencils' --radius and --border lists (none: each primitive's
   * defaults). */
  dense_shape shapes[DENSE_MAX_SHAPES];
  int shape_count;
  size_t element_sizes[OPTIONS_MAX_ITEMS];
  int element_size_count;
  unsigned radii[OPTIONS_MAX_ITEMS];
  int radius_count;
  prism_border borders[OPTIONS_MAX_ITEMS];
  int border_count;

  int reps;
  uint64_t seed;
  report_format format;
  const char *output; /* --output: a file instead of stdout; NULL: stdout */
  int list_devices;   /* --list-devices: list and exit */
} bench_options;

/* Exit codes of prism-bench. */
enum { BENCH_EXIT_OK = 0, BENCH_EXIT_FAILED = 1, BENCH_EXIT_USAGE = 2 };

/* Parse the command line into opt (defaults filled in). Returns -1 to go
 * on, or an exit code: BENCH_EXIT_OK after --help or --version,
 * BENCH_EXIT_USAGE after printing what is wrong with an argument. */
int options_parse(int argc, char **argv, bench_options *opt);

/* The n values to run on a device: --n, or the default sweep for it. */
int options_sizes(const bench_options *opt, int is_cpu, size_t *ns, int max);

#endif /* PRISM_BENCH_OPTIONS_H */
