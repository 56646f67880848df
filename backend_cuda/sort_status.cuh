/* SPDX-License-Identifier: MIT */
/*
 * Per-digit look-back status of the onesweep pass (Adinets & Merrill 2022),
 * and its look-back. Unlike the other look-backs (lookback.cuh), which one
 * warp walks over 32 predecessors at a time, each digit's thread walks
 * alone, a window of predecessors at a time, so it is written here.
 *
 * Layout: the count words of core/lookback.h, one 64-bit word per (tile,
 * digit),
 *   status[tile * RADIX_DIGITS + digit]
 * in scratch, cleared before each sort_onesweep launch. The flag
 * (PRISM_LB_EMPTY; PRISM_LB_AGGREGATE: the tile's own count of the digit;
 * PRISM_LB_PREFIX: the count of the digit in this tile and every tile
 * before it, plus the digit's global start) sits above the value. One
 * 64-bit volatile store publishes flag and value together, so a reader
 * never sees one without the other and no fence is needed. A word goes from
 * EMPTY to AGGREGATE to PREFIX; either non-empty value is valid when seen.
 */
#ifndef PRISM_BACKEND_CUDA_SORT_STATUS_CUH
#define PRISM_BACKEND_CUDA_SORT_STATUS_CUH

#include "lookback.cuh"

namespace prism_cuda {

/* Publishes value with flag (PRISM_LB_AGGREGATE or PRISM_LB_PREFIX) for
 * (tile, digit). */
__device__ __forceinline__ void publish_digit(unsigned long long *status,
                                              unsigned tile, int digit,
                                              unsigned flag,
                                              unsigned long long value) {
  volatile unsigned long long *word =
      status + size_t(tile) * RADIX_DIGITS + digit;
  *word = PRISM_LB_COUNT_WORD(flag, value);
}

/*
 * Called by the thread of digit in the block of tile (> 0), after it has
 * published its aggregate. Walks back over the predecessors, adding
 * aggregates until it meets a prefix, and returns the sum: where the
 * digit's keys of this tile start in the output. Each step issues the loads
 * of WINDOW predecessors at once (independent L2 round trips, not a chain
 * of them) and consumes them in order up to the first empty word, where it
 * pauses (spin_ns) and reloads from there. Tile 0 always publishes a
 * prefix, so the walk never passes it; tiles are drawn from a ticket, so
 * every tile waited for is held by a running block that publishes without
 * waiting on this one.
 */
template <int WINDOW>
__device__ __forceinline__ unsigned long long
lookback_digit(const unsigned long long *status, unsigned tile, int digit,
               unsigned spin_ns) {
  static_assert(WINDOW >= 1, "a look-back window holds at least one word");
  long long pred = (long long)tile - 1; // the next word to consume
  unsigned long long exclusive = 0;
  for (;;) {
    unsigned long long w[WINDOW];
#pragma unroll
    for (int k = 0; k < WINDOW; ++k) {
      const volatile unsigned long long *word =
          status + size_t(pred - k) * RADIX_DIGITS + digit;
      // Before tile 0 nothing is read: tile 0's prefix stops the walk.
      w[k] = pred - k >= 0 ? *word : 0ull;
    }
    int used = 0;
#pragma unroll
    for (int k = 0; k < WINDOW; ++k) {
      if (used != k) // an earlier word of the window was empty
        break;
      const unsigned flag = PRISM_LB_COUNT_FLAG(w[k]);
      if (flag == PRISM_LB_EMPTY)
        break;
      exclusive += PRISM_LB_COUNT_OF(w[k]);
      if (flag == PRISM_LB_PREFIX)
        return exclusive;
      used = k + 1;
    }
    pred -= used;
    if (used < WINDOW)
      lookback_pause(spin_ns);
  }
}

} // namespace prism_cuda

#endif /* PRISM_BACKEND_CUDA_SORT_STATUS_CUH */
