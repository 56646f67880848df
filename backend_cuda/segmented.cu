/* SPDX-License-Identifier: MIT */
/*
 * Segmented scan (by head flags or by offsets) and segmented reduce (by
 * offsets): the entry point. The strategies are segmented_scan.cu and
 * segmented_reduce.cu, what they share segmented.cuh; kernels_cl/
 * segmented.cl is the OpenCL port, with the same phases and names.
 */
#include "segmented.cuh"

#include <stdint.h>

extern "C" prism_status
prism__cuda_segmented(prism_context *ctx, const prism__segmented_args *args) {
  prism__cuda_ctx *c = NULL;
  prism_status st = prism__cuda_enter(ctx, &c);
  if (st != PRISM_OK)
    return st;
  if (args->first_bad)
    *args->first_bad = SIZE_MAX;
  if (!args->reduce && args->n == 0) // core answers n = 0 itself
    return PRISM_OK;
  return args->reduce ? prism_cuda::segmented_reduce(ctx, c, args)
                      : prism_cuda::segmented_scan(ctx, c, args);
}
