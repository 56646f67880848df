/* SPDX-License-Identifier: MIT */
/*
 * The references of prism's transpose and stencils on NVIDIA devices, on
 * the same host data, uploaded once with cudaMalloc/cudaMemcpy and timed
 * the way prism is (timing.h: k calls, then cudaStreamSynchronize):
 * - naive transpose: a thread per element, the read coalesced, the write
 *   strided by the row count (each write a sector of its own);
 * - naive stencil: a thread per grid point reading its taps straight from
 *   global memory, the nonzero weights and their offsets in __constant__
 *   memory, in prism's order with fma, so its result has prism's bits;
 * - the seeds' conv2d: a thread per pixel of a 16 x 16 block, the K x K
 *   loop over global memory with clamped borders, weights (K up to 15) in
 *   __constant__ memory;
 * - cuDNN: cudnnConvolutionForward, one image of one channel, NCHW, f32,
 *   CUDNN_CROSS_CORRELATION (prism's stencil is a correlation too), pad r
 *   (cuDNN pads with zeros: prism's zero border), FMA math (no TF32), the
 *   algorithm the fastest of cudnnFindConvolutionForwardAlgorithm's and
 *   its workspace allocated before the clock starts. Built where CMake
 *   finds cuDNN (PRISM_BENCH_HAVE_CUDNN), else a skip.
 * Built only with CUDA (PRISM_BENCH_HAVE_CUDA).
 */
#ifndef PRISM_BENCH_DENSE_REF_H
#define PRISM_BENCH_DENSE_REF_H

#include "prism.h"
#include "timing.h"

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The naive stencil keeps this many nonzero weights in constant memory;
 * the seeds' conv2d takes K x K weights up to this K. */
#define DENSE_REF_MAX_TAPS 1024
#define DENSE_REF_CONV2D_MAX_K 15

typedef struct dense_ref dense_ref;

typedef enum dense_ref_status {
  DENSE_REF_OK = 0,
  DENSE_REF_SKIPPED = 1, /* no device, does not fit, not taken: msg says */
  DENSE_REF_FAILED = 2   /* a CUDA or cuDNN call failed: msg says which */
} dense_ref_status;

typedef enum dense_ref_kind {
  DENSE_REF_NAIVE = 0,  /* the naive stencil: any grid and border */
  DENSE_REF_CONV2D = 1, /* the seeds' conv2d: 2-D, clamp, K <= 15 */
  DENSE_REF_CUDNN = 2   /* cuDNN: 2-D, zero border, f32 */
} dense_ref_kind;

/* Upload bytes of input to CUDA device `device`, with an output of as
 * many bytes; *name gets the device's name. */
dense_ref_status dense_ref_create(int device, const void *input, size_t bytes,
                                  dense_ref **out, char *name, size_t name_size,
                                  char *msg, size_t msg_size);

/* The naive transpose of a batch of rows x cols matrices of element_size
 * bytes (1, 2, 4, 8): one call whose output goes to result, then the calls
 * timed. */
dense_ref_status dense_ref_transpose(dense_ref *r, size_t element_size,
                                     size_t rows, size_t cols, size_t batch,
                                     const bench_timer *timer,
                                     bench_timing *timing, void *result,
                                     char *msg, size_t msg_size);

/* One application of the stencil desc and weights (prism_stencil_create's
 * layout) by kind: one call whose output goes to result, then the calls
 * timed. On success msg says what cuDNN chose ("" for the kernels). */
dense_ref_status dense_ref_stencil(dense_ref *r, dense_ref_kind kind,
                                   const prism_stencil_desc *desc,
                                   const void *weights,
                                   const bench_timer *timer,
                                   bench_timing *timing, void *result,
                                   char *msg, size_t msg_size);

/* Release the device memory. Accepts NULL. */
void dense_ref_destroy(dense_ref *r);

#ifdef __cplusplus
}
#endif

#endif /* PRISM_BENCH_DENSE_REF_H */
