/* SPDX-License-Identifier: MIT */
/*
 * Tile status for the decoupled look-back scan (Merrill & Garland 2016),
 * and its look-back policy (the walk: lookback.cuh).
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

#include "lookback.cuh"

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

/* The scan's look-back policy (lookback.cuh): values of T under Op. */
template <class Op, class T>
struct ScanLookback : PublishAfterWalk<ScanLookback<Op, T>> {
  using Status = TileStatus<T>;
  using Item = T;
  using Value = T;

  static __device__ __forceinline__ T start() {
    return Op::identity();
  }
  static __device__ __forceinline__ unsigned
  read_first(const Status &status, long long pred, T &value) {
    value = Op::identity();
    return pred >= 0 ? status.read(unsigned(pred), value) : PRISM_LB_PREFIX;
  }
  static __device__ __forceinline__ unsigned read(const Status &status,
                                                  long long pred, T &value) {
    return status.read(unsigned(pred), value);
  }
  static __device__ __forceinline__ void gather(T &exclusive, T &value,
                                                bool counts, long long pred,
                                                bool first_window) {
    if (!counts || pred < 0)
      value = Op::identity();
    T window = warp_reduce<Op>(value);
    // The window lies before the tiles gathered so far.
    exclusive = first_window ? window : Op::apply(window, exclusive);
  }
  static __device__ __forceinline__ void
  publish(const Status &status, unsigned tile, unsigned flag, T value) {
    status.publish(tile, flag, value);
  }
  static __device__ __forceinline__ T inclusive(T exclusive, T aggregate) {
    return Op::apply(exclusive, aggregate);
  }
};

} // namespace prism_cuda

#endif /* PRISM_BACKEND_CUDA_TILE_STATUS_CUH */
