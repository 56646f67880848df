/* SPDX-License-Identifier: MIT */
/*
 * Stable ranking of a tile of keys by one digit: where each key goes when
 * the tile is reordered by digit, keys of one digit keeping their order.
 *
 * Layout ("warp-striped"): item j of lane l of warp w is key
 *   w * 32 * ITEMS + j * 32 + l
 * of the tile, so each j is one coalesced access per warp, and input order
 * is (warp, j, lane): exactly the order in which ranks are handed out.
 *
 * Steps (each a function, so that the onesweep kernel can publish its
 * counts as soon as they are known):
 *  1. rank_in_warp: per warp, one shared counter per digit. For each j,
 *     __match_any_sync groups the lanes with the same digit; the group's
 *     highest lane reads and bumps the counter, and each lane's rank within
 *     the warp is the counter's old value plus its peers on lower lanes.
 *  2. digit_counts: thread d (one per digit) turns column d of the
 *     counters into an exclusive scan over warps and returns the tile's
 *     count of digit d.
 *  3. digit_offsets: a block-wide exclusive scan over the digits gives
 *     where each digit starts in the tile; added into column d.
 *  4. tile_ranks: rank = counter[warp][digit] + rank within the warp.
 * Items at positions >= valid are not counted and get no rank.
 */
#ifndef PRISM_BACKEND_CUDA_SORT_RANK_CUH
#define PRISM_BACKEND_CUDA_SORT_RANK_CUH

#include "block.cuh"
#include "ops.cuh"

namespace prism_cuda {

template <int BLOCK_THREADS, int ITEMS> struct BlockRadixRank {
  static constexpr int WARPS = BLOCK_THREADS / WARP_THREADS;
  static constexpr int WARP_ITEMS = WARP_THREADS * ITEMS;
  static constexpr int TILE_ITEMS = BLOCK_THREADS * ITEMS;
  // A match value no digit has: invalid items form their own group.
  static constexpr unsigned NO_DIGIT = 0xffffffffu;
  // Between steps 1 and 4 a rank within the warp and its digit share one
  // word: the rank in the low RANK_BITS bits, the digit above.
  static constexpr int RANK_BITS = 16;
  static_assert(WARP_ITEMS <= (1 << RANK_BITS) && RADIX_BITS + RANK_BITS <= 32,
                "a warp's items must fit RANK_BITS");
  static_assert(TILE_ITEMS < (1 << 30), "tile too large");

  /* One row of digit counters per warp (shared memory). */
  struct Counters {
    unsigned warp[WARPS][RADIX_DIGITS];
  };

  /* The tile position of this thread's item j. */
  static __device__ __forceinline__ int position(int j) {
    return warp_id() * WARP_ITEMS + j * WARP_THREADS + lane_id();
  }

  /* Step 1. The caller has synchronised since anything else last used the
   * counters' memory. ranks[j] gets item j's rank among the warp's items
   * of its digit, and the digit (see RANK_BITS). */
  template <class K, class Digit>
  static __device__ __forceinline__ void
  rank_in_warp(const K (&keys)[ITEMS], int valid, Digit digit_of, Counters &c,
               unsigned (&ranks)[ITEMS]) {
    unsigned *counters = c.warp[warp_id()];
    const int lane = lane_id();
#pragma unroll
    for (int d = lane; d < RADIX_DIGITS; d += WARP_THREADS)
      counters[d] = 0;
    __syncwarp();
    const unsigned lower_lanes = (1u << lane) - 1u;
#pragma unroll
    for (int j = 0; j < ITEMS; ++j) {
      const bool ok = position(j) < valid;
      const unsigned digit = ok ? digit_of(keys[j]) : NO_DIGIT;
      const unsigned peers = __match_any_sync(FULL_MASK, digit);
      const int leader = WARP_THREADS - 1 - __clz(peers);
      unsigned before = 0;
      if (ok && lane == leader) {
        before = counters[digit];
        counters[digit] = before + unsigned(__popc(peers));
      }
      before = __shfl_sync(FULL_MASK, before, leader);
      // The digit rides along above the rank, for step 4: recomputing it
      // would keep every digit alive in registers in between.
      ranks[j] = (digit << RANK_BITS) | (before + __popc(peers & lower_lanes));
      // The next item's leader may be another lane: it must see this
      // update.
      __syncwarp();
    }
  }

  /* Step 2. Returns the tile's count of digit threadIdx.x (0 in threads
   * past the digits). Starts with the barrier after step 1. */
  static __device__ __forceinline__ unsigned digit_counts(Counters &c) {
    __syncthreads();
    unsigned count = 0;
    if (threadIdx.x < RADIX_DIGITS) {
#pragma unroll
      for (int w = 0; w < WARPS; ++w) {
        const unsigned here = c.warp[w][threadIdx.x];
        c.warp[w][threadIdx.x] = count;
        count += here;
      }
    }
    return count;
  }

  /* Step 3. count: step 2's. Returns where digit threadIdx.x starts in the
   * tile. Ends with a barrier, after which the counters hold final warp
   * offsets. warp_slots: WARPS words of shared memory, not reused by the
   * caller before its next barrier. */
  static __device__ __forceinline__ unsigned
  digit_offsets(unsigned count, Counters &c, unsigned *warp_slots) {
    unsigned total;
    const unsigned offset =
        block_exclusive_scan<Op<unsigned, PRISM_SUM>, BLOCK_THREADS>(
            count, warp_slots, &total);
    if (threadIdx.x < RADIX_DIGITS) {
#pragma unroll
      for (int w = 0; w < WARPS; ++w)
        c.warp[w][threadIdx.x] += offset;
    }
    __syncthreads();
    return offset;
  }

  /* Step 4: ranks (from step 1) become ranks in the tile. The counters'
   * memory may be reused only after a barrier. */
  static __device__ __forceinline__ void
  tile_ranks(int valid, const Counters &c, unsigned (&ranks)[ITEMS]) {
    const unsigned *counters = c.warp[warp_id()];
    constexpr unsigned RANK_MASK = (1u << RANK_BITS) - 1u;
#pragma unroll
    for (int j = 0; j < ITEMS; ++j)
      if (position(j) < valid)
        ranks[j] = (ranks[j] & RANK_MASK) + counters[ranks[j] >> RANK_BITS];
  }
};

} // namespace prism_cuda

#endif /* PRISM_BACKEND_CUDA_SORT_RANK_CUH */
