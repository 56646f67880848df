/* SPDX-License-Identifier: MIT */
/*
 * What the segmented files share: how the kernels read the segment
 * offsets, and how a checked call's first bad segment comes back; and the
 * entries of the two strategies, segmented_scan.cu (scan by head flags or
 * by offsets) and segmented_reduce.cu (reduce by offsets), which
 * segmented.cu's entry point chooses between.
 *
 * Checked calls keep the first bad segment s in scratch as ~s, raised with
 * a 64-bit atomicMax (so a zeroed word means none, cleared with the rest),
 * and bring it back through the pinned result slot with a stream sync.
 */
#ifndef PRISM_BACKEND_CUDA_SEGMENTED_CUH
#define PRISM_BACKEND_CUDA_SEGMENTED_CUH

#include "cuda_internal.h"

#include <stdint.h>
#include <string.h>

namespace prism_cuda {

prism_status segmented_scan(prism_context *ctx, prism__cuda_ctx *c,
                            const prism__segmented_args *a);
prism_status segmented_reduce(prism_context *ctx, prism__cuda_ctx *c,
                              const prism__segmented_args *a);

namespace {

/* Offset types as a run-time code: OFFSET_SIGNED | OFFSET_WIDE. Flags by
 * their byte count. One instantiation serves every index type. */
constexpr unsigned OFFSET_SIGNED = 1, OFFSET_WIDE = 2;

/* Offset s clamped to [0, n]; ok = whether it lay in [0, n]. */
__device__ __forceinline__ unsigned long long
load_offset(const void *offsets, size_t s, unsigned code, size_t n, bool &ok) {
  unsigned long long v;
  bool negative;
  if (code & OFFSET_WIDE) {
    v = static_cast<const unsigned long long *>(offsets)[s];
    negative = (code & OFFSET_SIGNED) && (long long)v < 0;
  } else {
    const unsigned w = static_cast<const unsigned *>(offsets)[s];
    negative = (code & OFFSET_SIGNED) && int(w) < 0;
    v = w;
  }
  ok = !negative && v <= n;
  return negative ? 0ull : (v < n ? v : (unsigned long long)n);
}

__device__ __forceinline__ void record_bad(unsigned long long *first_bad,
                                           size_t s) {
  atomicMax(first_bad, ~(unsigned long long)s);
}

inline unsigned offset_code(prism_type t) {
  return (t == PRISM_I32 || t == PRISM_I64 ? OFFSET_SIGNED : 0u) |
         (t == PRISM_U64 || t == PRISM_I64 ? OFFSET_WIDE : 0u);
}

/* Brings a checked call's first bad segment (~s, 0 for none) back. */
inline prism_status read_first_bad(prism_context *ctx, prism__cuda_ctx *c,
                                   const unsigned long long *word,
                                   size_t *first_bad) {
  unsigned long long found = 0;
  prism_status st = prism__cuda_read_result(ctx, c, word, sizeof found, &found);
  if (st != PRISM_OK)
    return st;
  *first_bad = found == 0 ? SIZE_MAX : size_t(~found);
  return PRISM_OK;
}

} // namespace
} // namespace prism_cuda

#endif /* PRISM_BACKEND_CUDA_SEGMENTED_CUH */
