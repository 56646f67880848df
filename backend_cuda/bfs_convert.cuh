/* SPDX-License-Identifier: MIT */
/*
 * BFS, the convert step: from a bottom-up step back to queues.
 */
#ifndef PRISM_BACKEND_CUDA_BFS_CONVERT_CUH
#define PRISM_BACKEND_CUDA_BFS_CONVERT_CUH

#include "bfs_search.cuh"

#include <stdint.h>

namespace prism_cuda {
namespace bfs {

/*
 * convert: the vertices the last bottom-up step found (set in the current
 * bitmap, not in the other) into the next queues, for a top-down step.
 * Warp w takes 32 bitmap words at a time (lane l word 32 w' + l); each
 * lane walks its word's new bits twice (count, then write after one
 * atomicAdd per queue and warp). Traffic: two
 * words per 32 vertices, the offsets and a queue entry per frontier
 * vertex (n_f < n / beta here).
 */
__device__ __forceinline__ void convert(const Graph &g, const Search &s,
                                        const State &st, Accum *acc,
                                        Team team) {
  const uint32_t lane = lane_id(), warp = team.warp, warps = team.warps;
  const uint32_t *cur = s.bitmap(st.visited_parity);
  const uint32_t *prev = s.bitmap(st.visited_parity ^ 1u);
  const uint32_t parity = st.queue_parity ^ 1u;
  const uint32_t groups =
      g.words / WARP_THREADS + (g.words % WARP_THREADS != 0);
  for (uint32_t group = warp; group < groups; group += warps) {
    const uint32_t w = group * WARP_THREADS + lane;
    const uint32_t fresh = w < g.words ? cur[w] & ~prev[w] : 0u;
    if (!__any_sync(FULL_MASK, fresh != 0))
      continue;
    uint32_t small = 0, items = 0;
    for (uint32_t bits = fresh; bits; bits &= bits - 1) {
      const uint32_t v = w * WARP_THREADS + uint32_t(__ffs(bits) - 1);
      const uint64_t d = g.offsets[v + 1] - g.offsets[v];
      if (d <= BFS_SMALL_DEGREE)
        ++small;
      else
        items += chunks_of(d);
    }
    uint32_t small_at, items_at;
    reserve(acc, small, items, small_at, items_at);
    for (uint32_t bits = fresh; bits; bits &= bits - 1) {
      const uint32_t v = w * WARP_THREADS + uint32_t(__ffs(bits) - 1);
      const uint64_t begin = g.offsets[v], d = g.offsets[v + 1] - begin;
      if (d <= BFS_SMALL_DEGREE) {
        s.small_queue(parity)[small_at++] = Entry{v, uint32_t(d), begin};
      } else {
        for (uint32_t j = 0, c = chunks_of(d); j < c; ++j, ++items_at)
          if (items_at < s.item_capacity)
            s.item_queue(parity)[items_at] = make_uint2(v, j);
      }
    }
  }
}

} // namespace bfs
} // namespace prism_cuda

#endif /* PRISM_BACKEND_CUDA_BFS_CONVERT_CUH */
