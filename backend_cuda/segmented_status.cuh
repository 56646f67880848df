/* SPDX-License-Identifier: MIT */
/*
 * The tile status of the segmented kernels (segmented_scan.cu,
 * segmented_reduce.cu) and their look-back policy (the walk: lookback.cuh),
 * over the pairs of segmented_op.cuh.
 *
 * Layout: TileStatus's (tile_status.cuh), aggregate and prefix arrays of
 * the value words of core/lookback.h, with the pair's kind in every word,
 * so that one 64-bit store publishes a word's valid bit, the kind and 32
 * bits of the value together.
 */
#ifndef PRISM_BACKEND_CUDA_SEGMENTED_STATUS_CUH
#define PRISM_BACKEND_CUDA_SEGMENTED_STATUS_CUH

#include "lookback.cuh"
#include "segmented_op.cuh"

#include <string.h>

namespace prism_cuda {

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
 * The segmented look-back policy (lookback.cuh): pairs under SegOp<Op>. A
 * tile with a mark (total.kind != 0) knows its inclusive prefix at once,
 * total itself, and publishes it as its prefix, which ends every
 * look-back that reaches it; others publish an aggregate (whose kind is
 * then none). A tile that needs no carry (wait false) does not walk. The
 * aggregates a walk passes have no mark, so their values and the prefix's
 * meet with plain op (warp_reduce), and the prefix gives the kind. A tile
 * without a mark then publishes its prefix. The walk returns the pair of
 * everything before the tile (none for tile 0 or when not waiting).
 */
template <class Op, class T> struct SegLookback {
  using S = SegOp<Op>;
  using Status = SegStatus<T>;
  using Item = SegPair<T>;
  using Value = SegPair<T>;

  static __device__ __forceinline__ SegPair<T> start() {
    return S::template none<T>();
  }
  static __device__ __forceinline__ bool
  publish_aggregate(const Status &status, unsigned tile, int lane,
                    SegPair<T> total, bool wait) {
    if (lane == 0)
      status.publish(
          tile, tile == 0 || total.kind ? PRISM_LB_PREFIX : PRISM_LB_AGGREGATE,
          total);
    return !(tile == 0 || !wait);
  }
  static __device__ __forceinline__ unsigned
  read_first(const Status &status, long long pred, SegPair<T> &p) {
    p = S::template none<T>();
    return pred >= 0 ? status.read(unsigned(pred), p) : PRISM_LB_PREFIX;
  }
  static __device__ __forceinline__ unsigned
  read(const Status &status, long long pred, SegPair<T> &p) {
    return status.read(unsigned(pred), p);
  }
  static __device__ __forceinline__ void gather(SegPair<T> &before,
                                                SegPair<T> &p, bool counts,
                                                long long pred,
                                                bool first_window) {
    if (!counts || pred < 0)
      p = S::template none<T>();
    const T window = warp_reduce<Op>(p.value);
    before.value = first_window ? window : Op::apply(window, before.value);
  }
  static __device__ __forceinline__ void
  met_prefix(SegPair<T> &before, SegPair<T> p, unsigned prefixes) {
    before.kind = __shfl_sync(FULL_MASK, p.kind, __ffs(prefixes) - 1);
  }
  /* A tile with a mark published its prefix at once. */
  static __device__ __forceinline__ bool
  prefix_pending(const SegPair<T> &total) {
    return !total.kind;
  }
  static __device__ __forceinline__ void
  publish(const Status &status, unsigned tile, unsigned flag, SegPair<T> p) {
    status.publish(tile, flag, p);
  }
  static __device__ __forceinline__ SegPair<T> inclusive(SegPair<T> before,
                                                         SegPair<T> total) {
    return S::combine(before, total);
  }
};

} // namespace prism_cuda

#endif /* PRISM_BACKEND_CUDA_SEGMENTED_STATUS_CUH */
