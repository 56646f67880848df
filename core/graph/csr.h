/* SPDX-License-Identifier: MIT */
/*
 * Host CSR helpers shared by the checks, the loaders and the generators.
 */
#ifndef PRISM_CORE_CSR_H
#define PRISM_CORE_CSR_H

#include "prism.h"

#include <stdio.h>

/** Column indices are 32-bit: a CSR holds fewer than 2^32 vertices. */
#define PRISM__CSR_MAX_VERTICES ((size_t)UINT32_MAX)

/**
 * The vertex rule of prism_csr_load (prism.h): a file of B bytes gives at
 * most PRISM__FREE_VERTICES + PRISM__VERTICES_PER_BYTE * B vertices. The
 * fuzz targets (PRISM_FUZZ_SMALL_BUFFERS) allow fewer for free, so that an
 * input's graph costs what its bytes do and fuzzing stays fast.
 */
#ifndef PRISM_FUZZ_SMALL_BUFFERS
#define PRISM__FREE_VERTICES (1u << 20)
#else
#define PRISM__FREE_VERTICES (1u << 10)
#endif
#define PRISM__VERTICES_PER_BYTE 16u

/**
 * The checks of prism_csr_validate, on behalf of fn: records the first
 * failure on ctx (thread-locally when ctx is NULL) as "fn: csr ..." and
 * returns its status. prism_graph_create calls it with its context.
 */
prism_status prism__csr_check(prism_context *ctx, const prism_csr *csr,
                              const char *fn);

/**
 * The checks of prism_csr_matrix_validate, on behalf of fn, recorded the
 * same way as "fn: matrix->..." (e.g. "matrix->csr.col_indices[12] = 9
 * (row 3): not below num_cols = 9"). prism_matrix_create calls it with its
 * context.
 */
prism_status prism__csr_matrix_check(prism_context *ctx,
                                     const prism_csr_matrix *m, const char *fn);

/**
 * Allocate the arrays of a CSR of n vertices and m edges made by prism:
 * row_offsets (n + 1) and col_indices (m, at least one entry so that it is
 * never NULL), uninitialised. On failure out is zeroed and the message
 * (thread-local) names fn.
 */
prism_status prism__csr_alloc(size_t n, size_t m, int directed, const char *fn,
                              prism_csr *out);

/**
 * prism_csr_load from an open stream (read to its end, left open): the
 * same checks, results and messages, with name in place of the path. The
 * fuzz targets feed it memory through fmemopen.
 */
prism_status prism__csr_load_stream(FILE *f, const char *name,
                                    const prism_load_options *options,
                                    prism_csr *out);

/**
 * prism_csr_matrix_load from an open stream, as prism__csr_load_stream is
 * prism_csr_load's.
 */
prism_status prism__csr_matrix_load_stream(FILE *f, const char *name,
                                           const prism_load_options *options,
                                           prism_type value_type,
                                           prism_csr_matrix *out);

/**
 * The file prism_csr_save_matrix_market writes, into an open stream
 * (flushed, left open); write errors name name.
 */
prism_status prism__csr_write_matrix_market(const prism_csr *csr, FILE *f,
                                            const char *name);

#endif /* PRISM_CORE_CSR_H */
