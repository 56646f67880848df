/* SPDX-License-Identifier: MIT */
/*
 * Tile status of the stream compaction's look-back: how many elements each
 * tile keeps, and how many all tiles up to it keep (select.cu). The
 * counterpart of tile_status.cuh for counts, packed as radix_status.cuh
 * packs its digit counts.
 *
 * Layout: the count words of core/lookback.h, one 64-bit word per tile,
 *   status[tile]
 * in scratch, cleared before each launch. The flag (PRISM_LB_EMPTY;
 * PRISM_LB_AGGREGATE: the tile's own count; PRISM_LB_PREFIX: the count of
 * this tile and every tile before it) sits above the count (n < 2^62).
 * One 64-bit volatile store publishes flag and count together,
 * so a reader never sees one without the other and no fence is needed. A
 * word goes from EMPTY to AGGREGATE to PREFIX; either non-empty value is
 * valid when seen. Volatile accesses skip the SM's L1 (not coherent across
 * SMs).
 */
#ifndef PRISM_BACKEND_CUDA_COUNT_STATUS_CUH
#define PRISM_BACKEND_CUDA_COUNT_STATUS_CUH

#include "ops.cuh"
#include "tile_status.cuh"

namespace prism_cuda {

/* One thread publishes count with flag (PRISM_LB_AGGREGATE or PRISM_LB_PREFIX)
 * as tile's status. */
__device__ __forceinline__ void publish_count(unsigned long long *status,
                                              unsigned tile, unsigned flag,
                                              unsigned long long count) {
  volatile unsigned long long *word = status + tile;
  *word = PRISM_LB_COUNT_WORD(flag, count);
}

/*
 * Called by one whole warp of the block that owns tile, once the tile's
 * count (aggregate) is known. Publishes it, walks back over the
 * predecessors 32 at a time (lane i reads tile - 1 - i), adding their
 * counts until it meets a prefix, publishes this tile's prefix and returns
 * the exclusive one: how many elements the tiles before it keep (the same
 * in every lane). Tile 0 publishes its prefix at once. first_ns: a pause
 * before the first poll; spin_ns: between polls of a window that still has
 * empty tiles (see lookback in tile_status.cuh, which this mirrors).
 */
__device__ __forceinline__ unsigned long long
lookback_count(unsigned long long *status, unsigned tile,
               unsigned long long aggregate, unsigned first_ns,
               unsigned spin_ns) {
  using Sum = Op<unsigned long long, PRISM_SUM>;
  const int lane = lane_id();
  if (tile == 0) {
    if (lane == 0)
      publish_count(status, 0, PRISM_LB_PREFIX, aggregate);
    return 0;
  }
  if (lane == 0)
    publish_count(status, tile, PRISM_LB_AGGREGATE, aggregate);
  lookback_pause(first_ns);

  const volatile unsigned long long *words = status;
  unsigned long long exclusive = 0;
  long long pred = (long long)tile - 1 - lane;
  for (;;) {
    // Before tile 0 there is nothing to add: it reads as a prefix of 0.
    unsigned long long word =
        pred >= 0 ? words[pred] : PRISM_LB_COUNT_WORD(PRISM_LB_PREFIX, 0u);
    unsigned flag = PRISM_LB_COUNT_FLAG(word);
    // Lanes up to the nearest prefix (the lowest such lane) count; those
    // beyond are covered by it, so only counted lanes are waited for.
    unsigned prefixes, counted;
    for (;;) {
      prefixes = __ballot_sync(FULL_MASK, flag == PRISM_LB_PREFIX);
      counted = ((prefixes & (0u - prefixes)) << 1) - 1u; // all if none
      if (!(__ballot_sync(FULL_MASK, flag == PRISM_LB_EMPTY) & counted))
        break;
      lookback_pause(spin_ns);
      if (flag == PRISM_LB_EMPTY) {
        word = words[pred];
        flag = PRISM_LB_COUNT_FLAG(word);
      }
    }
    const unsigned long long value =
        (counted >> lane) & 1u ? PRISM_LB_COUNT_OF(word) : 0ull;
    exclusive += warp_reduce<Sum>(value);
    if (prefixes)
      break;
    pred -= WARP_THREADS;
  }
  if (lane == 0)
    publish_count(status, tile, PRISM_LB_PREFIX, exclusive + aggregate);
  return exclusive;
}

} // namespace prism_cuda

#endif /* PRISM_BACKEND_CUDA_COUNT_STATUS_CUH */
