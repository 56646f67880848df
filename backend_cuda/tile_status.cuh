/* SPDX-License-Identifier: MIT */
/*
 * Tile status for the decoupled look-back scan (Merrill & Garland 2016), and
 * the look-back itself.
 *
 * Layout: the value words of core/lookback.h (flags, packing and widths
 * are defined there once, for this backend, the OpenCL kernels and the
 * host tests), kind 0. Two arrays of 64-bit words in scratch, cleared by
 * scan_init before each scan,
 *   status_aggregate[tile * STATUS_WORDS + h]  the tile's own total
 *   status_prefix[tile * STATUS_WORDS + h]     the total of tiles 0..tile
 * STATUS_WORDS = PRISM_LB_WORDS(sizeof(T)). One 64-bit store publishes a
 * word's valid bit together with its 32 bits of the value: a reader never
 * sees a flag without its value, and no fence is needed between them. An
 * 8-byte value is valid once both its words are. Each word is written once
 * per scan, so a value, once valid, never changes under a reader. Accesses
 * are volatile, which skips the SM's L1 (not coherent across SMs).
 */
#ifndef PRISM_BACKEND_CUDA_TILE_STATUS_CUH
#define PRISM_BACKEND_CUDA_TILE_STATUS_CUH

#include "block.cuh"
#include "lookback.h"

#include <string.h>

namespace prism_cuda {

template <class T> struct TileStatus {
  static constexpr int STATUS_WORDS = PRISM_LB_WORDS(int(sizeof(T)));
  unsigned long long *aggregate;
  unsigned long long *prefix;

  /* One thread publishes value as tile's aggregate or inclusive prefix. */
  __device__ __forceinline__ void publish(unsigned tile, unsigned kind,
                                          T value) const {
    unsigned halves[STATUS_WORDS];
    memcpy(halves, &value, sizeof(T));
    volatile unsigned long long *words =
        (kind == PRISM_LB_PREFIX ? prefix : aggregate) +
        size_t(tile) * STATUS_WORDS;
#pragma unroll
    for (int h = 0; h < STATUS_WORDS; ++h)
      words[h] = PRISM_LB_VALUE_WORD(0u, halves[h]);
  }

  /* A word of a scan is valid once its high half is non-zero: the kind is
   * 0 here, so PRISM_LB_VALUE_WORD sets PRISM_LB_VALID alone. (This test,
   * not PRISM_LB_WORD_VALID's, keeps the code of the kernels as it was.) */
  static __device__ __forceinline__ bool published(unsigned long long w) {
    return (w >> 32) != 0;
  }
  static_assert(PRISM_LB_VALUE_WORD(0u, 0u) >> 32 == PRISM_LB_VALID,
                "a scan's status word: PRISM_LB_VALID alone in the high half");

  /* What tile has published: PRISM_LB_PREFIX or PRISM_LB_AGGREGATE with its
   * value, or PRISM_LB_EMPTY. Both arrays are read at once (one round trip). */
  __device__ __forceinline__ unsigned read(unsigned tile, T &value) const {
    const volatile unsigned long long *p = prefix + size_t(tile) * STATUS_WORDS;
    const volatile unsigned long long *a =
        aggregate + size_t(tile) * STATUS_WORDS;
    unsigned long long pw[STATUS_WORDS], aw[STATUS_WORDS];
#pragma unroll
    for (int h = 0; h < STATUS_WORDS; ++h) {
      pw[h] = p[h];
      aw[h] = a[h];
    }
    bool p_valid = true, a_valid = true;
    unsigned pv[STATUS_WORDS], av[STATUS_WORDS];
#pragma unroll
    for (int h = 0; h < STATUS_WORDS; ++h) {
      p_valid = p_valid && published(pw[h]);
      a_valid = a_valid && published(aw[h]);
      pv[h] = PRISM_LB_WORD_BITS(pw[h]);
      av[h] = PRISM_LB_WORD_BITS(aw[h]);
    }
    if (p_valid) {
      memcpy(&value, pv, sizeof(T));
      return PRISM_LB_PREFIX;
    }
    if (a_valid) {
      memcpy(&value, av, sizeof(T));
      return PRISM_LB_AGGREGATE;
    }
    return PRISM_LB_EMPTY;
  }
};

/* A pause in the look-back (sm_70 and later; elsewhere only a compiler
 * barrier so that polls are not hoisted). */
__device__ __forceinline__ void lookback_pause(unsigned ns) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 700
  if (ns)
    __nanosleep(ns);
  else
    __threadfence_block();
#else
  (void)ns;
  __threadfence_block();
#endif
}

/*
 * Called by one whole warp of the block that owns tile, once its aggregate
 * is known. Publishes the aggregate, walks back over the predecessors 32 at
 * a time (lane i reads tile - 1 - i), combining their aggregates until it
 * meets an inclusive prefix, publishes this tile's inclusive prefix and
 * returns the exclusive one (the same in every lane). Tile 0 publishes its
 * prefix at once. first_ns: a pause before the first poll, which gives the
 * predecessors time to publish; spin_ns: the pause between polls of a
 * window that still has empty tiles.
 */
template <class Op, class T>
__device__ T lookback(const TileStatus<T> &status, unsigned tile, T aggregate,
                      unsigned first_ns, unsigned spin_ns) {
  const int lane = lane_id();
  if (tile == 0) {
    if (lane == 0)
      status.publish(0, PRISM_LB_PREFIX, aggregate);
    return Op::identity();
  }
  if (lane == 0)
    status.publish(tile, PRISM_LB_AGGREGATE, aggregate);
  lookback_pause(first_ns);

  T exclusive = Op::identity();
  bool first_window = true;
  long long pred = (long long)tile - 1 - lane;
  for (;;) {
    // Before tile 0 there is nothing to add; a prefix stops the walk.
    T value = Op::identity();
    unsigned flag =
        pred >= 0 ? status.read(unsigned(pred), value) : PRISM_LB_PREFIX;
    // Lanes up to the nearest prefix (the lowest such lane) count; those
    // beyond are covered by it, so only counted lanes are waited for.
    unsigned prefixes, counted;
    for (;;) {
      prefixes = __ballot_sync(FULL_MASK, flag == PRISM_LB_PREFIX);
      counted = ((prefixes & (0u - prefixes)) << 1) - 1u; // all if none
      if (!(__ballot_sync(FULL_MASK, flag == PRISM_LB_EMPTY) & counted))
        break;
      lookback_pause(spin_ns);
      if (flag == PRISM_LB_EMPTY)
        flag = status.read(unsigned(pred), value);
    }
    if (!((counted >> lane) & 1u) || pred < 0)
      value = Op::identity();
    T window = warp_reduce<Op>(value);
    // The window lies before the tiles gathered so far.
    exclusive = first_window ? window : Op::apply(window, exclusive);
    first_window = false;
    if (prefixes)
      break;
    pred -= WARP_THREADS;
  }
  if (lane == 0)
    status.publish(tile, PRISM_LB_PREFIX, Op::apply(exclusive, aggregate));
  return exclusive;
}

} // namespace prism_cuda

#endif /* PRISM_BACKEND_CUDA_TILE_STATUS_CUH */
