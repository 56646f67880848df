/* SPDX-License-Identifier: MIT */
/*
 * The segmented operator, its warp and block scans, and the tile status and
 * look-back of the segmented kernels (segmented.cu).
 *
 * A run of elements folds to a pair (value, kind): kind is the run's last
 * mark (SEG_START: a head flag or the start of a good segment; SEG_END:
 * the end of a good segment that no other starts at; SEG_NONE), value the
 * op of the elements from that mark on (of all of them when there is
 * none). Pairs combine as
 *   (v1, k1) + (v2, k2) = k2 ? (v2, k2) : (v1 op v2, k1),
 * which is associative (not commutative).
 *
 * Tile status: the value words of core/lookback.h with the pair's kind,
 * as tile_status.cuh without it. Two arrays of 64-bit words in scratch,
 * cleared before each launch,
 *   aggregate[tile * STATUS_WORDS + h]  the tile's own pair
 *   prefix[tile * STATUS_WORDS + h]     the pair of tiles 0..tile
 * STATUS_WORDS = PRISM_LB_WORDS(sizeof(T)). One 64-bit store publishes a
 * word's valid bit, the kind and 32 bits of the value together, so no
 * fence is needed; an 8-byte value is valid once both its words are
 * (each word is written once per launch, so two valid words belong
 * together). Volatile accesses skip the SM's L1.
 */
#ifndef PRISM_BACKEND_CUDA_SEGMENTED_STATUS_CUH
#define PRISM_BACKEND_CUDA_SEGMENTED_STATUS_CUH

#include "ops.cuh"
#include "tile_status.cuh"

#include <string.h>

namespace prism_cuda {

enum : unsigned { SEG_NONE = 0, SEG_START = 1, SEG_END = 2 };

template <class T> struct SegPair {
  T value;
  unsigned kind;
};

template <class Op> struct SegOp {
  template <class T> static __device__ __forceinline__ SegPair<T> none() {
    return SegPair<T>{Op::identity(), SEG_NONE};
  }
  /* a before b. */
  template <class T>
  static __device__ __forceinline__ SegPair<T> combine(SegPair<T> a,
                                                       SegPair<T> b) {
    return b.kind ? b : SegPair<T>{Op::apply(a.value, b.value), a.kind};
  }
  /* One element x with mark after a. */
  template <class T>
  static __device__ __forceinline__ SegPair<T> push(SegPair<T> a, T x,
                                                    unsigned mark) {
    return mark ? SegPair<T>{x, mark}
                : SegPair<T>{Op::apply(a.value, x), a.kind};
  }
};

/* Kogge-Stone inclusive scan of pairs across the lanes of a warp. */
template <class Op, class T>
__device__ __forceinline__ SegPair<T> warp_seg_inclusive_scan(SegPair<T> p) {
  const int lane = lane_id();
#pragma unroll
  for (int offset = 1; offset < WARP_THREADS; offset *= 2) {
    const T up_value = __shfl_up_sync(FULL_MASK, p.value, offset);
    const unsigned up_kind = __shfl_up_sync(FULL_MASK, p.kind, offset);
    if (lane >= offset && !p.kind) {
      p.value = Op::apply(up_value, p.value);
      p.kind = up_kind;
    }
  }
  return p;
}

/* Exclusive scan of pairs over the block in thread order (thread 0 gets
 * the none pair), and the block's pair in *aggregate, as
 * block_exclusive_scan does for values. warp_slots holds BLOCK_THREADS /
 * 32 pairs in shared memory; the caller syncs before reusing it. */
template <class Op, int BLOCK_THREADS, class T>
__device__ __forceinline__ SegPair<T>
block_seg_exclusive_scan(SegPair<T> p, SegPair<T> *warp_slots,
                         SegPair<T> *aggregate) {
  using S = SegOp<Op>;
  constexpr int WARPS = BLOCK_THREADS / WARP_THREADS;
  const int lane = lane_id(), warp = warp_id();
  const SegPair<T> inclusive = warp_seg_inclusive_scan<Op>(p);
  if (lane == WARP_THREADS - 1)
    warp_slots[warp] = inclusive;
  __syncthreads();

  SegPair<T> warp_prefix = S::template none<T>();
  SegPair<T> total = warp_slots[0];
#pragma unroll
  for (int w = 1; w < WARPS; ++w) {
    if (w == warp)
      warp_prefix = total;
    total = S::combine(total, warp_slots[w]);
  }
  *aggregate = total;

  SegPair<T> exclusive;
  exclusive.value = __shfl_up_sync(FULL_MASK, inclusive.value, 1);
  exclusive.kind = __shfl_up_sync(FULL_MASK, inclusive.kind, 1);
  if (lane == 0)
    return warp_prefix;
  return warp == 0 ? exclusive : S::combine(warp_prefix, exclusive);
}

template <class T> struct SegStatus {
  static constexpr int STATUS_WORDS = PRISM_LB_WORDS(int(sizeof(T)));
  unsigned long long *aggregate;
  unsigned long long *prefix;

  /* One thread publishes p as tile's aggregate or inclusive prefix. */
  __device__ __forceinline__ void publish(unsigned tile, unsigned flag,
                                          SegPair<T> p) const {
    unsigned halves[STATUS_WORDS];
    memcpy(halves, &p.value, sizeof(T));
    volatile unsigned long long *words =
        (flag == PRISM_LB_PREFIX ? prefix : aggregate) +
        size_t(tile) * STATUS_WORDS;
#pragma unroll
    for (int h = 0; h < STATUS_WORDS; ++h)
      words[h] = PRISM_LB_VALUE_WORD(p.kind, halves[h]);
  }

  /* What tile has published: PRISM_LB_PREFIX or PRISM_LB_AGGREGATE with its
   * pair, or PRISM_LB_EMPTY. Both arrays are read at once. */
  __device__ __forceinline__ unsigned read(unsigned tile, SegPair<T> &p) const {
    const volatile unsigned long long *pw =
        prefix + size_t(tile) * STATUS_WORDS;
    const volatile unsigned long long *aw =
        aggregate + size_t(tile) * STATUS_WORDS;
    unsigned long long pv[STATUS_WORDS], av[STATUS_WORDS];
#pragma unroll
    for (int h = 0; h < STATUS_WORDS; ++h) {
      pv[h] = pw[h];
      av[h] = aw[h];
    }
    bool p_valid = true, a_valid = true;
#pragma unroll
    for (int h = 0; h < STATUS_WORDS; ++h) {
      p_valid = p_valid && PRISM_LB_WORD_VALID(pv[h]);
      a_valid = a_valid && PRISM_LB_WORD_VALID(av[h]);
    }
    const unsigned long long *w = p_valid ? pv : av;
    unsigned halves[STATUS_WORDS];
#pragma unroll
    for (int h = 0; h < STATUS_WORDS; ++h)
      halves[h] = PRISM_LB_WORD_BITS(w[h]);
    memcpy(&p.value, halves, sizeof(T));
    p.kind = PRISM_LB_WORD_KIND(w[0]);
    return p_valid   ? PRISM_LB_PREFIX
           : a_valid ? PRISM_LB_AGGREGATE
                     : PRISM_LB_EMPTY;
  }
};

/*
 * Called by one whole warp of the block that owns tile, once its pair
 * total is known. A tile with a mark (total.kind != 0) knows its
 * inclusive prefix at once, total itself, and publishes it as its prefix,
 * which ends every look-back that reaches it; others publish an aggregate
 * (whose kind is then none). Unless the tile needs no carry (wait false),
 * the warp walks back over the predecessors 32 at a time (lane i reads
 * tile - 1 - i) until it meets a prefix: the aggregates it passes have no
 * mark, so their values and the prefix's meet with plain op (warp_reduce),
 * and the prefix gives the kind. A tile without a mark then publishes its
 * prefix. Returns the pair of everything before the tile (none for tile 0
 * or when not waiting), the same in every lane. Pauses as for lookback.
 */
template <class Op, class T>
__device__ SegPair<T> seg_lookback(const SegStatus<T> &status, unsigned tile,
                                   SegPair<T> total, bool wait,
                                   unsigned first_ns, unsigned spin_ns) {
  using S = SegOp<Op>;
  const int lane = lane_id();
  if (lane == 0)
    status.publish(
        tile, tile == 0 || total.kind ? PRISM_LB_PREFIX : PRISM_LB_AGGREGATE,
        total);
  if (tile == 0 || !wait)
    return S::template none<T>();
  lookback_pause(first_ns);

  SegPair<T> before = S::template none<T>();
  bool first_window = true;
  long long pred = (long long)tile - 1 - lane;
  for (;;) {
    SegPair<T> p = S::template none<T>();
    unsigned flag =
        pred >= 0 ? status.read(unsigned(pred), p) : PRISM_LB_PREFIX;
    unsigned prefixes, counted;
    for (;;) {
      prefixes = __ballot_sync(FULL_MASK, flag == PRISM_LB_PREFIX);
      counted = ((prefixes & (0u - prefixes)) << 1) - 1u; // all if none
      if (!(__ballot_sync(FULL_MASK, flag == PRISM_LB_EMPTY) & counted))
        break;
      lookback_pause(spin_ns);
      if (flag == PRISM_LB_EMPTY)
        flag = status.read(unsigned(pred), p);
    }
    if (!((counted >> lane) & 1u) || pred < 0)
      p = S::template none<T>();
    const T window = warp_reduce<Op>(p.value);
    before.value = first_window ? window : Op::apply(window, before.value);
    first_window = false;
    if (prefixes) {
      before.kind = __shfl_sync(FULL_MASK, p.kind, __ffs(prefixes) - 1);
      break;
    }
    pred -= WARP_THREADS;
  }
  if (lane == 0 && !total.kind)
    status.publish(tile, PRISM_LB_PREFIX, S::combine(before, total));
  return before;
}

} // namespace prism_cuda

#endif /* PRISM_BACKEND_CUDA_SEGMENTED_STATUS_CUH */
