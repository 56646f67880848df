/* SPDX-License-Identifier: MIT */
/*
 * The decoupled look-back (Merrill & Garland 2016), written once for the
 * single-pass primitives of this backend: the scan (tile_status.cuh), the
 * stream compaction (count_status.cuh) and the segmented scan and reduce
 * (segmented_status.cuh). The radix sort's per-digit look-back
 * (sort_status.cuh) is a walk of one thread per digit, not of a warp,
 * and stays there; it shares lookback_pause. The status words and their
 * flags are core/lookback.h's.
 *
 * A look-back policy L says how the warp reads, gathers and publishes one
 * kind of status; the walk itself is here, once:
 *   L::Status   the status words (a kernel argument);
 *   L::Item     what one lane reads of one predecessor;
 *   L::Value    what the walk gathers, and what a tile publishes;
 *   start()     the gathered value before any window;
 *   publish_aggregate(st, tile, lane, aggregate, wait)
 *               publishes what the tile knows, and says whether it walks
 *               (PublishAfterWalk: every tile but tile 0, which publishes
 *               its prefix at once);
 *   read_first(st, pred, item)
 *               a lane's first read of predecessor pred: its flag, item
 *               set; pred < 0 (before tile 0) reads as a prefix that adds
 *               nothing;
 *   read(st, pred, item)
 *               a re-read of an empty predecessor;
 *   gather(v, item, counts, pred, first_window)
 *               the warp's window into v: the items of lanes that do not
 *               count drop out, the rest reduce over the warp, and the
 *               window goes before v (or is v, the first time);
 *   met_prefix(v, item, prefixes)
 *               after the window that held a prefix;
 *   prefix_pending(aggregate)
 *               whether the tile still publishes its prefix after the walk;
 *   publish(st, tile, flag, v), inclusive(exclusive, aggregate)
 *               one thread's store of a status; a tile's inclusive prefix.
 * Tiles are numbered by a ticket, so every tile waited for is held by a
 * running block that publishes without waiting on this one.
 *
 * The hooks are small on purpose: nvcc simplifies each inlined function
 * on its own before its caller, so where a boundary falls can change the
 * code it emits. These boundaries give the kernels the same PTX as the
 * three hand-written walks they replace (prefix_pending, for one, takes
 * its argument by reference for that reason); check the PTX when moving
 * one.
 */
#ifndef PRISM_BACKEND_CUDA_LOOKBACK_CUH
#define PRISM_BACKEND_CUDA_LOOKBACK_CUH

#include "block.cuh"
#include "lookback.h"

namespace prism_cuda {

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

/* The tile this block owns: thread 0 draws it from the ticket (an atomic
 * counter in scratch, cleared with the status words) and shares it through
 * slot, in shared memory. Tiles are drawn in the order blocks start. */
__device__ __forceinline__ unsigned draw_tile(unsigned *ticket,
                                              unsigned &slot) {
  if (threadIdx.x == 0)
    slot = atomicAdd(ticket, 1u);
  __syncthreads();
  return slot;
}

/*
 * The publishing of a look-back in which every tile but tile 0 walks, and
 * publishes its inclusive prefix after the walk (the scan, the
 * compaction): policies derive from PublishAfterWalk<L> for
 * publish_aggregate, prefix_pending and met_prefix, and give publish.
 */
template <class L> struct PublishAfterWalk {
  template <class Status, class V>
  static __device__ __forceinline__ bool
  publish_aggregate(const Status &status, unsigned tile, int lane, V aggregate,
                    bool) {
    if (tile == 0) {
      if (lane == 0)
        L::publish(status, 0, PRISM_LB_PREFIX, aggregate);
      return false;
    }
    if (lane == 0)
      L::publish(status, tile, PRISM_LB_AGGREGATE, aggregate);
    return true;
  }
  template <class V>
  static __device__ __forceinline__ bool prefix_pending(const V &) {
    return true;
  }
  template <class V, class I>
  static __device__ __forceinline__ void met_prefix(V &, const I &, unsigned) {}
};

/*
 * The look-back of tile, by one whole warp of the block that owns it, once
 * the tile's aggregate is known. L::publish_aggregate publishes what the
 * tile knows and says whether it needs the walk: not tile 0, which
 * publishes its prefix at once, nor a tile that does not wait for its
 * carry (wait false). The walk goes over the predecessors 32 at a time
 * (lane i reads tile - 1 - i), gathering until the window that meets an
 * inclusive prefix, then publishes this tile's (unless
 * L::prefix_pending says it did at once).
 * Returns the exclusive value of tile (L::start() without a walk), the
 * same in every lane. first_ns: a pause before the first poll, which gives
 * the predecessors time to publish; spin_ns: the pause between polls of a
 * window that still has empty tiles.
 */
template <class L>
__device__ __forceinline__ typename L::Value
lookback(const typename L::Status &status, unsigned tile,
         typename L::Value aggregate, bool wait, unsigned first_ns,
         unsigned spin_ns) {
  const int lane = lane_id();
  if (!L::publish_aggregate(status, tile, lane, aggregate, wait))
    return L::start();
  lookback_pause(first_ns);

  typename L::Value exclusive = L::start();
  bool first_window = true;
  long long pred = (long long)tile - 1 - lane;
  for (;;) {
    typename L::Item item;
    unsigned flag = L::read_first(status, pred, item);
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
        flag = L::read(status, pred, item);
    }
    L::gather(exclusive, item, (counted >> lane) & 1u, pred, first_window);
    first_window = false;
    if (prefixes) {
      L::met_prefix(exclusive, item, prefixes);
      break;
    }
    pred -= WARP_THREADS;
  }
  if (lane == 0 && L::prefix_pending(aggregate))
    L::publish(status, tile, PRISM_LB_PREFIX,
               L::inclusive(exclusive, aggregate));
  return exclusive;
}

} // namespace prism_cuda

#endif /* PRISM_BACKEND_CUDA_LOOKBACK_CUH */
