/* SPDX-License-Identifier: MIT */
/*
 * Histograms (prism_histogram_even, prism_histogram_range): the samples
 * counted per bin, each sample's bin computed exactly as core mapped it
 * (core/backend.h, prism__histogram_args). The entry point; three kernels
 * (the OpenCL port uses the same names): histogram_bytes for 1-byte
 * samples (histogram_bytes.cu), histogram_blocks, or histogram_atomic
 * where the bins do not fit shared memory, for wider ones
 * (histogram_blocks.cu); what they share is histogram.cuh. counts is
 * zeroed on the stream first.
 */
#include "histogram.cuh"

extern "C" prism_status
prism__cuda_histogram(prism_context *ctx, const prism__histogram_args *args) {
  prism__cuda_ctx *c = NULL;
  prism_status st = prism__cuda_enter(ctx, &c);
  if (st != PRISM_OK)
    return st;
  if (args->n == 0) // core answers n = 0 itself; kept for safety
    return PRISM_OK;
  if (args->sample_type == PRISM_U8)
    return prism_cuda::run_histogram_bytes(ctx, c, args);
  return prism_cuda::run_histogram_blocks(ctx, c, args);
}
