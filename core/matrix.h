/* SPDX-License-Identifier: MIT */
/*
 * The device sparse matrix, private to core: the CSR and its values in
 * buffers of the matrix's context, and prism_spmv's work partition (the
 * merge-path tiles and the rows split between them, core/backend.h),
 * planned on the host at creation for the backend's tile size.
 */
#ifndef PRISM_CORE_MATRIX_H
#define PRISM_CORE_MATRIX_H

#include "context.h"

struct prism_matrix_s {
  prism_context *ctx;
  prism_matrix *prev, *next; /* the context's live matrices */
  size_t rows, cols, entries;
  prism_type type;
  size_t tile_items, tiles, splits, long_splits;
  prism_buffer *offsets;    /* rows + 1 uint32: the low 32 bits */
  prism_buffer *cols_buf;   /* entries uint32 */
  prism_buffer *values;     /* entries of type */
  prism_buffer *coords;     /* 2 (tiles + 1) uint64, head flags in r0 */
  prism_buffer *partials;   /* 2 tiles of type */
  prism_buffer *split_rows; /* 3 splits uint64 */
};

#endif /* PRISM_CORE_MATRIX_H */
