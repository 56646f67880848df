/* SPDX-License-Identifier: MIT */
/*
 * Tile status of the stream compaction's look-back: how many elements each
 * tile keeps, and how many all tiles up to it keep (select.cu); and its
 * look-back policy (the walk: lookback.cuh).
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

#include "lookback.cuh"
#include "ops.cuh"

namespace prism_cuda {

/* The count words of a launch. */
struct CountStatus {
  unsigned long long *words;

  /* One thread publishes count with flag (PRISM_LB_AGGREGATE or
   * PRISM_LB_PREFIX) as tile's status. */
  __device__ __forceinline__ void publish(unsigned tile, unsigned flag,
                                          unsigned long long count) const {
    volatile unsigned long long *word = words + tile;
    *word = PRISM_LB_COUNT_WORD(flag, count);
  }
};

/* The compaction's look-back policy (lookback.cuh): counts under +. A lane
 * keeps the word it read. */
struct CountLookback : PublishAfterWalk<CountLookback> {
  using Status = CountStatus;
  using Item = unsigned long long;
  using Value = unsigned long long;
  using Sum = Op<unsigned long long, PRISM_SUM>;

  static __device__ __forceinline__ unsigned long long start() {
    return 0;
  }
  /* Before tile 0 there is nothing to add: it reads as a prefix of 0. */
  static __device__ __forceinline__ unsigned
  read_first(const Status &status, long long pred, unsigned long long &word) {
    const volatile unsigned long long *words = status.words;
    word = pred >= 0 ? words[pred] : PRISM_LB_COUNT_WORD(PRISM_LB_PREFIX, 0u);
    return PRISM_LB_COUNT_FLAG(word);
  }
  static __device__ __forceinline__ unsigned
  read(const Status &status, long long pred, unsigned long long &word) {
    const volatile unsigned long long *words = status.words;
    word = words[pred];
    return PRISM_LB_COUNT_FLAG(word);
  }
  static __device__ __forceinline__ void gather(unsigned long long &exclusive,
                                                const unsigned long long &word,
                                                bool counts, long long, bool) {
    const unsigned long long value = counts ? PRISM_LB_COUNT_OF(word) : 0ull;
    exclusive += warp_reduce<Sum>(value);
  }
  static __device__ __forceinline__ void publish(const Status &status,
                                                 unsigned tile, unsigned flag,
                                                 unsigned long long count) {
    status.publish(tile, flag, count);
  }
  static __device__ __forceinline__ unsigned long long
  inclusive(unsigned long long exclusive, unsigned long long aggregate) {
    return exclusive + aggregate;
  }
};

} // namespace prism_cuda

#endif /* PRISM_BACKEND_CUDA_COUNT_STATUS_CUH */
