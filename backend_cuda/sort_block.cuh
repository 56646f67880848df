/* SPDX-License-Identifier: MIT */
/*
 * A stable radix sort of up to THREADS x ITEMS keys (or pairs) by one
 * block, every pass in shared memory: the whole sort of a small input
 * (sort.cu's sort_single_block) and of a segment that fits a tile
 * (segmented_sort.cu).
 * Ownership: the block owns the n keys; thread t holds the warp-striped
 * items of sort_rank.cuh in registers from load to store.
 * Partials meet: each pass ranks the keys as a tile (sort_rank.cuh) and
 * exchanges keys (then values) through shared memory to their ranks, which
 * become the next pass's input order.
 * Traffic: each key and value read once and written once (coalesced); all
 * loads precede all stores, so sorting in place is safe.
 */
#ifndef PRISM_BACKEND_CUDA_SORT_BLOCK_CUH
#define PRISM_BACKEND_CUDA_SORT_BLOCK_CUH

#include "sort_keys.cuh"
#include "sort_rank.cuh"

namespace prism_cuda {

template <class KT, class V, int THREADS, int ITEMS> struct BlockSort {
  using K = typename KT::Bits;
  using Rank = BlockRadixRank<THREADS, ITEMS>;
  static constexpr bool PAIRS = HAS_VALUES<V>;
  static constexpr int TILE_ITEMS = Rank::TILE_ITEMS;

  struct Shared {
    union {
      typename Rank::Counters counters;
      K keys[TILE_ITEMS];
      V values[PAIRS ? TILE_ITEMS : 1];
    } x;
    unsigned warp_slots[Rank::WARPS];
  };

  /* Sorts keys_in[0, n) (values_in too for pairs) into keys_out by bits
   * [begin_bit, end_bit) of the image ^ flip; n <= TILE_ITEMS. Every
   * thread of the block calls it. */
  static __device__ __forceinline__ void
  sort(const K *keys_in, K *keys_out, const V *values_in, V *values_out, int n,
       unsigned begin_bit, unsigned end_bit, K flip, Shared &s) {
    K keys[ITEMS];
    V values[PAIRS ? ITEMS : 1];
#pragma unroll
    for (int j = 0; j < ITEMS; ++j) {
      const int i = Rank::position(j);
      keys[j] = i < n ? keys_in[i] : K(0);
      if constexpr (PAIRS)
        values[j] = i < n ? values_in[i] : V(0);
    }

    const unsigned passes = sort_passes(begin_bit, end_bit);
    for (unsigned p = 0; p < passes; ++p) {
      const DigitOf<KT> digit_of = pass_digit<KT>(flip, begin_bit, end_bit, p);
      unsigned ranks[ITEMS];
      Rank::rank_in_warp(keys, n, digit_of, s.x.counters, ranks);
      const unsigned count = Rank::digit_counts(s.x.counters);
      Rank::digit_offsets(count, s.x.counters, s.warp_slots);
      Rank::tile_ranks(n, s.x.counters, ranks);
      __syncthreads(); // ranks are read from the counters: now reuse them

#pragma unroll
      for (int j = 0; j < ITEMS; ++j)
        if (Rank::position(j) < n)
          s.x.keys[ranks[j]] = keys[j];
      __syncthreads();
#pragma unroll
      for (int j = 0; j < ITEMS; ++j)
        if (Rank::position(j) < n)
          keys[j] = s.x.keys[Rank::position(j)];
      if constexpr (PAIRS) {
        __syncthreads();
#pragma unroll
        for (int j = 0; j < ITEMS; ++j)
          if (Rank::position(j) < n)
            s.x.values[ranks[j]] = values[j];
        __syncthreads();
#pragma unroll
        for (int j = 0; j < ITEMS; ++j)
          if (Rank::position(j) < n)
            values[j] = s.x.values[Rank::position(j)];
      }
      __syncthreads(); // the next pass's counters overwrite the exchange
    }

#pragma unroll
    for (int j = 0; j < ITEMS; ++j) {
      const int i = Rank::position(j);
      if (i < n) {
        keys_out[i] = keys[j];
        if constexpr (PAIRS)
          values_out[i] = values[j];
      }
    }
  }
};

} // namespace prism_cuda

#endif /* PRISM_BACKEND_CUDA_SORT_BLOCK_CUH */
