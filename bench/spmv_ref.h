/* SPDX-License-Identifier: MIT */
/*
 * The references of prism's SpMV on NVIDIA devices, on the same host data
 * (the CSR with 64-bit row offsets and 32-bit columns, x, y's start),
 * uploaded once with cudaMalloc/cudaMemcpy and timed the way prism is
 * (timing.h: k calls, then cudaStreamSynchronize):
 * - cuSPARSE: cusparseSpMV on a CSR descriptor, CUSPARSE_SPMV_ALG_DEFAULT,
 *   with 32-bit offsets and columns where the matrix fits them (as a
 *   cuSPARSE user stores it), else 64-bit both; the handle, descriptors and
 *   external buffer are made before the clock starts. Built where CMake
 *   finds cuSPARSE (PRISM_BENCH_HAVE_CUSPARSE), else a skip.
 * - warp: the warp-per-row kernel of the seeds, the textbook GPU CSR SpMV:
 *   one 32-lane warp per row, its lanes stride the row's entries, a
 *   shuffle reduction, lane 0 writes y. A row of 10^7 entries keeps one
 *   warp busy alone: the imbalance prism's merge path is measured against.
 * Built only with CUDA (PRISM_BENCH_HAVE_CUDA).
 */
#ifndef PRISM_BENCH_SPMV_REF_H
#define PRISM_BENCH_SPMV_REF_H

#include "prism.h"
#include "timing.h"

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct spmv_ref spmv_ref;

typedef enum spmv_ref_status {
  SPMV_REF_OK = 0,
  SPMV_REF_SKIPPED = 1, /* no device, does not fit, no cuSPARSE: msg says */
  SPMV_REF_FAILED = 2   /* a CUDA or cuSPARSE call failed: msg says which */
} spmv_ref_status;

typedef enum spmv_ref_kind {
  SPMV_REF_CUSPARSE = 0,
  SPMV_REF_WARP = 1
} spmv_ref_kind;

/* Upload the matrix (F32 or F64 values), x (num_cols elements) and y's
 * start y0 (rows elements) to CUDA device `device`; *name gets the
 * device's name. */
spmv_ref_status spmv_ref_create(int device, const prism_csr_matrix *a,
                                const void *x, const void *y0, spmv_ref **out,
                                char *name, size_t name_size, char *msg,
                                size_t msg_size);

/* y = alpha * A * x + beta * y by kind: y set to y0, one call whose y goes
 * to result (rows elements on the host), then the calls timed (y goes on
 * from each call's result, as prism's does). */
spmv_ref_status spmv_ref_run(spmv_ref *r, spmv_ref_kind kind, double alpha,
                             double beta, const bench_timer *timer,
                             bench_timing *timing, void *result, char *msg,
                             size_t msg_size);

/* Release the device memory. Accepts NULL. */
void spmv_ref_destroy(spmv_ref *r);

#ifdef __cplusplus
}
#endif

#endif /* PRISM_BENCH_SPMV_REF_H */
