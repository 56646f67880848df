/* SPDX-License-Identifier: MIT */
/*
 * BFS, the bottom-up step: every unvisited vertex looks for a visited
 * in-neighbour. Each warp owns 32 vertices (one bitmap word): it alone
 * writes their levels, parents and new bitmap word, no atomics.
 */
#ifndef PRISM_BACKEND_CUDA_BFS_BOTTOM_UP_CUH
#define PRISM_BACKEND_CUDA_BFS_BOTTOM_UP_CUH

#include "bfs_search.cuh"

#include <stdint.h>

namespace prism_cuda {
namespace bfs {

__device__ __forceinline__ bool visited_bit(const uint32_t *bits, uint32_t u) {
  return (bits[u >> 5] >> (u & 31u)) & 1u;
}

/*
 * bottom_up_word: one warp, bitmap word w (old: its old bits), lane l
 * owning vertex 32 w + l. An unvisited vertex scans its in-edges for a
 * neighbour set in the old bitmap (visited before this step: by the BFS
 * invariant, exactly the frontier among its in-neighbours) and stops at
 * the first.
 * - Thread phase: the lane alone, BFS_BU_BATCH edges per load round, up to
 *   BFS_BU_THREAD_EDGES edges.
 * - Group phase: the rest of each longer list, the whole warp at a time
 *   (32 x BFS_BU_BATCH edges per round, a ballot finds the first hit).
 * Writes the found vertices' levels and parents; returns their bits.
 */
template <bool PARENTS>
__device__ __forceinline__ uint32_t
bottom_up_word(const Graph &g, const Search &s, const State &st,
               const uint32_t *old_bits, uint32_t w, uint32_t old, Tally &t) {
  constexpr int B = BFS_BU_BATCH;
  const uint32_t lane = lane_id();
  const uint32_t v = w * WARP_THREADS + lane;
  const bool open = !((old >> lane) & 1u);
  uint64_t next = 0, end = 0;
  if (open) {
    next = g.in_offsets[v];
    end = g.in_offsets[v + 1];
  }
  const uint64_t in_degree = end - next;
  const uint64_t stop =
      in_degree > BFS_BU_THREAD_EDGES ? next + BFS_BU_THREAD_EDGES : end;
  bool found = false;
  uint32_t parent = 0;
  // Thread phase.
  for (; !found && next < stop; next += B) {
    uint32_t u[B];
#pragma unroll
    for (int j = 0; j < B; ++j)
      u[j] = next + j < stop ? g.in_cols[next + j] : 0u;
    bool hit[B];
#pragma unroll
    for (int j = 0; j < B; ++j)
      hit[j] = next + j < stop && visited_bit(old_bits, u[j]);
#pragma unroll
    for (int j = B - 1; j >= 0; --j)
      if (hit[j]) {
        found = true;
        parent = u[j];
      }
  }
  // Group phase.
  uint32_t pending = __ballot_sync(FULL_MASK, !found && stop < end);
  while (pending) {
    const int l = __ffs(pending) - 1;
    pending &= pending - 1;
    const uint64_t from = __shfl_sync(FULL_MASK, stop, l);
    const uint64_t to = __shfl_sync(FULL_MASK, end, l);
    for (uint64_t base = from; base < to; base += WARP_THREADS * B) {
      uint32_t u[B];
#pragma unroll
      for (int j = 0; j < B; ++j) {
        const uint64_t e = base + uint32_t(j) * WARP_THREADS + lane;
        u[j] = e < to ? g.in_cols[e] : 0u;
      }
      bool hit = false;
      uint32_t first = 0;
#pragma unroll
      for (int j = 0; j < B; ++j) {
        const uint64_t e = base + uint32_t(j) * WARP_THREADS + lane;
        const uint32_t hits =
            __ballot_sync(FULL_MASK, e < to && visited_bit(old_bits, u[j]));
        if (hits && !hit) {
          hit = true;
          first = __shfl_sync(FULL_MASK, u[j], __ffs(hits) - 1);
        }
      }
      if (hit) {
        if (int(lane) == l) {
          found = true;
          parent = first;
        }
        break;
      }
    }
  }
  if (found) {
    s.levels[v] = int32_t(st.level + 1u);
    if (PARENTS)
      s.parents[v] = int32_t(parent);
    t.vertices += 1;
    t.out_edges += g.directed ? g.offsets[v + 1] - g.offsets[v] : in_degree;
    t.in_edges += in_degree;
  }
  return __ballot_sync(FULL_MASK, found);
}

/*
 * bottom_up: warp w takes 32 bitmap words at a time (lane l loads word
 * 32 w' + l: one coalesced load skips a run of visited vertices), then
 * runs bottom_up_word on each word with an unvisited vertex, and lane l
 * stores word 32 w' + l of the new bitmap (old | found). Traffic: one old
 * and one new word per 32 vertices; per unvisited vertex its in-offsets
 * and the in-edges scanned (columns, plus bitmap words mostly from L1/L2).
 */
template <bool PARENTS>
__device__ __forceinline__ void bottom_up(const Graph &g, const Search &s,
                                          const State &st, Tally &t,
                                          Team team) {
  const uint32_t lane = lane_id(), warp = team.warp, warps = team.warps;
  const uint32_t *old_bits = s.bitmap(st.visited_parity);
  uint32_t *new_bits = s.bitmap(st.visited_parity ^ 1u);
  const uint32_t groups =
      g.words / WARP_THREADS + (g.words % WARP_THREADS != 0);
  for (uint32_t group = warp; group < groups; group += warps) {
    const uint32_t mine = group * WARP_THREADS + lane;
    const uint32_t old = mine < g.words ? old_bits[mine] : ~0u;
    uint32_t found = 0;
    for (uint32_t open = __ballot_sync(FULL_MASK, old != ~0u); open;
         open &= open - 1) {
      const int l = __ffs(open) - 1;
      const uint32_t bits = bottom_up_word<PARENTS>(
          g, s, st, old_bits, group * WARP_THREADS + uint32_t(l),
          __shfl_sync(FULL_MASK, old, l), t);
      if (int(lane) == l)
        found = bits;
    }
    if (mine < g.words)
      new_bits[mine] = old | found;
  }
}

} // namespace bfs
} // namespace prism_cuda

#endif /* PRISM_BACKEND_CUDA_BFS_BOTTOM_UP_CUH */
