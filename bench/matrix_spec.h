/* SPDX-License-Identifier: MIT */
/*
 * The spmv rows' matrices: --matrices entries that the bench generates (a
 * 2-D and a 3-D Laplacian, RMAT's structure, one row holding half the
 * entries) or files that prism_csr_matrix_load reads (--matrix, and
 * --matrices entries that name no generator). Parsed when the options are
 * read, built on the host once per matrix, the values once per type.
 */
#ifndef PRISM_BENCH_MATRIX_SPEC_H
#define PRISM_BENCH_MATRIX_SPEC_H

#include "prism.h"

#include <stddef.h>
#include <stdint.h>

/* The short rows of hugerow:N: this many entries each; row 0 has as many
 * as all of them together. */
#define MATRIX_HUGEROW_ROW_ENTRIES 4

typedef enum matrix_kind {
  MATRIX_LAPLACE2D = 0,   /* laplace2d:N: 5 points on an N x N grid */
  MATRIX_LAPLACE3D27 = 1, /* laplace3d27:N: 27 points on an N^3 grid */
  MATRIX_RMAT = 2,        /* rmat:SCALE[:EDGEFACTOR]: prism_csr_rmat's */
  MATRIX_HUGEROW = 3,     /* hugerow:N: N rows, row 0 half the entries */
  MATRIX_FILE = 4         /* prism_csr_matrix_load: path */
} matrix_kind;

/* One --matrices or --matrix entry. */
typedef struct matrix_spec {
  matrix_kind kind;
  size_t side;                 /* laplacians: the grid's side */
  unsigned scale, edge_factor; /* rmat */
  size_t rows;                 /* hugerow */
  const char *path;            /* a file: points into the entry parsed */
} matrix_spec;

/* Parse an entry: laplace2d:N (N^2 rows: 4 on the diagonal, -1 for each
 * of the 4 neighbours inside the grid), laplace3d27:N (N^3 rows: 26 on the
 * diagonal, -1 for each of the 26 neighbours inside the grid),
 * rmat:SCALE[:EDGEFACTOR] (as --graph takes it; values random in [-1, 1)),
 * hugerow:N (rows of MATRIX_HUGEROW_ROW_ENTRIES random columns, row 0
 * with as many as the others together; values random in [-1, 1)); sizes
 * as 4096 or 2^12. Anything else, or any entry when is_file is set, is a
 * file path. Returns 1, or 0 with what is wrong in msg. */
int matrix_spec_parse(const char *entry, int is_file, matrix_spec *spec,
                      char *msg, size_t msg_size);

/* The rows' name of the matrix: the entry with its defaults spelt out
 * (hugerow:2^22); a file by its last path component. */
void matrix_spec_name(const matrix_spec *spec, char *buf, size_t size);

/* A matrix on the host and who owns its arrays. */
typedef struct matrix_host {
  prism_csr_matrix m;
  int loaded;     /* prism_csr_matrix_load's: prism_csr_matrix_free */
  int prism_made; /* the structure is prism_csr_rmat's: prism_csr_free */
} matrix_host;

/* The matrix of spec with values of type (PRISM_F32, PRISM_F64). host is
 * zeroed, or holds this spec's matrix of another type: a generated one
 * keeps its structure and gets new values, a file is loaded again (gzip'd
 * ones through a decompressed copy). Random values and RMAT's structure
 * come from seed. On failure host is released and msg says why
 * (PRISM_OUT_OF_MEMORY: the host's memory). */
prism_status matrix_build(const matrix_spec *spec, prism_type type,
                          uint64_t seed, matrix_host *host, char *msg,
                          size_t msg_size);

/* Release the host matrix and zero it. */
void matrix_free(matrix_host *host);

#endif /* PRISM_BENCH_MATRIX_SPEC_H */
