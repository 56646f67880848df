/* SPDX-License-Identifier: MIT */
/*
 * BFS, the top-down step: the frontier queues expanded over out-edges.
 * A vertex is claimed by setting its visited bit (atomicOr); the one
 * claimant writes its level and parent and queues it.
 */
#ifndef PRISM_BACKEND_CUDA_BFS_TOP_DOWN_CUH
#define PRISM_BACKEND_CUDA_BFS_TOP_DOWN_CUH

#include "bfs_search.cuh"

#include <stdint.h>

namespace prism_cuda {
namespace bfs {

/*
 * A top-down step's first small-queue tile (tile team.warp), gathered
 * before the step's state was known (loaded: true), or not gathered.
 * entry: this lane's entry as loaded; nbr, src, mask: the tile's first
 * pass over those entries (gather). Lanes past the queue's end may have
 * loaded stale entries, but they come after every real one, so the real
 * tile's edges are a prefix of the gathered ones (top_down cuts the
 * rest off); entries that cannot be this graph's count as empty. Only
 * the pass's first AHEAD_ITEMS items are gathered (a team tile of the
 * grid graph, 8 vertices of degree 4, is one item); with four, the
 * persistent kernel spilled registers.
 */
constexpr int AHEAD_ITEMS = BFS_TD_ITEMS < 2 ? BFS_TD_ITEMS : 2;
struct Ahead {
  Entry entry;
  bool loaded;
  uint32_t nbr[AHEAD_ITEMS], src[AHEAD_ITEMS], mask;
};

/* The lane whose edge range holds edge e of the warp's list: how many
 * lanes' inclusive prefixes are <= e, by binary lifting over shuffles.
 * Every lane calls it. */
__device__ __forceinline__ uint32_t warp_owner(uint32_t inclusive, uint32_t e) {
  uint32_t owner = 0;
#pragma unroll
  for (uint32_t step = WARP_THREADS / 2; step > 0; step /= 2) {
    const uint32_t probe = __shfl_sync(FULL_MASK, inclusive, owner + step - 1);
    if (probe <= e)
      owner += step;
  }
  return owner;
}

/* Items of vertex v (out-degree count chunks from at), written by the
 * whole warp for each lane with large set. Every lane calls it. */
__device__ __forceinline__ void write_items(const Search &s, uint2 *out,
                                            bool large, uint32_t v,
                                            uint32_t count, uint32_t at) {
  uint32_t todo = __ballot_sync(FULL_MASK, large);
  while (todo) {
    const int l = __ffs(todo) - 1;
    todo &= todo - 1;
    const uint32_t lv = __shfl_sync(FULL_MASK, v, l);
    const uint32_t c = __shfl_sync(FULL_MASK, count, l);
    const uint32_t a = __shfl_sync(FULL_MASK, at, l);
    for (uint32_t j = lane_id(); j < c; j += WARP_THREADS)
      if (a + j < s.item_capacity)
        out[a + j] = make_uint2(lv, j);
  }
}

/*
 * claim: the lane's K candidate vertices (bit k of mask: nbr[k] is one,
 * reached from src[k]) at level + 1; atomicOr claims, and the claimant
 * writes level and parent, loads its offsets, queues it and counts.
 * - A large step (filter; bandwidth-bound): a plain load of the bitmap
 *   word drops the visited candidates first (most of them); queue places
 *   are reserved once the degrees are known, small-queue entries for the
 *   small vertices and items for the large ones, one atomicAdd per
 *   cursor and warp, both in flight together.
 * - A small step (latency-bound): every claimed vertex takes a
 *   small-queue entry (a large one with no edges), reserved while its
 *   offsets are still loading, so the two round trips overlap; a warp
 *   with large vertices then reserves their items.
 * Every lane calls it.
 */
template <bool PARENTS, int K>
__device__ __forceinline__ void claim(const Graph &g, const Search &s,
                                      const State &st, Accum *acc, Tally &t,
                                      bool filter, const uint32_t (&nbr)[K],
                                      const uint32_t (&src)[K], uint32_t mask) {
  uint32_t *visited = s.bitmap(st.visited_parity);
  if (filter) {
    uint32_t word[K];
#pragma unroll
    for (int k = 0; k < K; ++k)
      word[k] = (mask >> k) & 1u ? visited[nbr[k] >> 5] : 0u;
#pragma unroll
    for (int k = 0; k < K; ++k)
      if ((word[k] >> (nbr[k] & 31u)) & 1u)
        mask &= ~(1u << k);
  }
  if (!__any_sync(FULL_MASK, mask != 0))
    return;
  // Every atomicOr goes out before any result is looked at: no atomic's
  // guard depends on another's result.
  uint32_t old[K];
#pragma unroll
  for (int k = 0; k < K; ++k)
    old[k] = (mask >> k) & 1u
                 ? atomicOr(&visited[nbr[k] >> 5], 1u << (nbr[k] & 31u))
                 : 0u;
#pragma unroll
  for (int k = 0; k < K; ++k)
    if ((old[k] >> (nbr[k] & 31u)) & 1u)
      mask &= ~(1u << k);
  // The offsets' first use comes after the reservation, so that the
  // warp does not wait for them before its atomicAdd.
  uint64_t begin[K], degree[K];
#pragma unroll
  for (int k = 0; k < K; ++k) {
    begin[k] = degree[k] = 0;
    if ((mask >> k) & 1u) {
      const uint32_t v = nbr[k];
      s.levels[v] = int32_t(st.level + 1u);
      if (PARENTS)
        s.parents[v] = int32_t(src[k]);
      begin[k] = g.offsets[v];
      degree[k] = g.offsets[v + 1];
    }
  }
  const uint32_t parity = st.queue_parity ^ 1u;
  uint32_t small_at = 0, items_at = 0, small = 0, items = 0;
  if (!filter)
    small_at = warp_reserve(&acc->small, __popc(mask));
#pragma unroll
  for (int k = 0; k < K; ++k)
    if ((mask >> k) & 1u) {
      degree[k] -= begin[k];
      if (degree[k] > BFS_SMALL_DEGREE)
        items += chunks_of(degree[k]);
      else
        ++small;
      t.vertices += 1;
      t.out_edges += degree[k];
      t.in_edges += g.directed ? g.in_offsets[nbr[k] + 1] - g.in_offsets[nbr[k]]
                               : degree[k];
    }
  if (filter)
    reserve(acc, small, items, small_at, items_at);
  else if (__any_sync(FULL_MASK, items != 0))
    items_at = warp_reserve(&acc->items, items);
  Entry *small_out = s.small_queue(parity);
#pragma unroll
  for (int k = 0; k < K; ++k)
    if ((mask >> k) & 1u) {
      const bool large = degree[k] > BFS_SMALL_DEGREE;
      if (!large || !filter)
        small_out[small_at++] =
            Entry{nbr[k], large ? 0u : uint32_t(degree[k]), begin[k]};
    }
  if (!__any_sync(FULL_MASK, items != 0))
    return;
  uint2 *items_out = s.item_queue(parity);
#pragma unroll
  for (int k = 0; k < K; ++k) {
    const bool large = ((mask >> k) & 1u) && degree[k] > BFS_SMALL_DEGREE;
    const uint32_t count = large ? chunks_of(degree[k]) : 0u;
    write_items(s, items_out, large, nbr[k], count, items_at);
    items_at += count;
  }
}

/*
 * gather: pass `pass` of a tile whose lanes' edges lie end to end (incl,
 * excl, total: the lanes' inclusive and exclusive prefixes of degree, and
 * their sum; begin, v: the lane's entry): lane l takes edges
 * pass + 32 k + l (FROM <= k < K), their columns into nbr and sources
 * into src, bit k of the result set where edge k exists. Every lane
 * calls it.
 */
template <int K, int FROM = 0>
__device__ __forceinline__ uint32_t gather(const Graph &g, uint32_t incl,
                                           uint32_t excl, uint32_t total,
                                           uint64_t begin, uint32_t v,
                                           uint32_t pass, uint32_t (&nbr)[K],
                                           uint32_t (&src)[K]) {
  const uint32_t lane = lane_id();
  uint32_t mask = 0;
#pragma unroll
  for (int k = FROM; k < K; ++k) {
    const uint32_t e = pass + uint32_t(k) * WARP_THREADS + lane;
    src[k] = nbr[k] = 0;
    if (pass + uint32_t(k) * WARP_THREADS >= total)
      continue; // no lane has an edge here (the warp agrees)
    const uint32_t owner = warp_owner(incl, e);
    const uint64_t row = __shfl_sync(FULL_MASK, begin, owner);
    const uint32_t first = __shfl_sync(FULL_MASK, excl, owner);
    src[k] = __shfl_sync(FULL_MASK, v, owner);
    if (e < total) {
      nbr[k] = g.cols[row + (e - first)];
      mask |= 1u << k;
    }
  }
  return mask;
}

/* load_ahead: this lane's entry of the tile whose entries start at
 * queue[first] (lanes below tile), before the step's state is known;
 * an entry that cannot be this graph's comes back empty. */
__device__ __forceinline__ Entry load_ahead(const Graph &g, const Entry *queue,
                                            uint32_t first, uint32_t tile) {
  const uint32_t lane = lane_id();
  Entry e{0, 0, 0};
  if (lane < tile && first + lane < g.n) {
    e = queue[first + lane];
    if (e.degree > BFS_SMALL_DEGREE || e.begin > g.m ||
        e.degree > g.m - e.begin)
      e = Entry{0, 0, 0};
  }
  return e;
}

/* gather_ahead: the first pass over the tile's entries (load_ahead) into
 * a. Every lane calls it. */
__device__ __forceinline__ void gather_ahead(const Graph &g, const Entry &e,
                                             Ahead &a) {
  const uint32_t incl = warp_inclusive_scan<Sum32>(e.degree);
  const uint32_t total = __shfl_sync(FULL_MASK, incl, WARP_THREADS - 1);
  a.entry = e;
  a.mask = 0;
  if (BFS_GATHER_AHEAD)
    a.mask = gather<AHEAD_ITEMS>(g, incl, incl - e.degree, total, e.begin,
                                 e.vertex, 0, a.nbr, a.src);
}

/*
 * top_down: expand the frontier queues.
 * - Small queue: warp w takes tiles of team.tile vertices (w, w + W,
 *   ...; 32 on the whole grid); a warp scan of their out-degrees lays
 *   their edges end to end, and each pass hands lane l the edges
 *   pass + l + 32 j (j < TD_ITEMS), found by binary search over the scan
 *   (gather, warp_owner): every lane busy whatever the degrees, and lanes
 *   reading neighbouring edges of a vertex coalesce. The first pass of
 *   the first tile may have been gathered ahead (Ahead).
 * - Items: warp w takes items w, w + W, ...: CHUNK_EDGES consecutive
 *   edges of one vertex, one pass.
 * Traffic: per frontier vertex its entry (16 bytes); per edge its column
 * (4 bytes, coalesced runs), in a large step a bitmap word (mostly L1/L2
 * hits); per new vertex an atomicOr, a level (and parent), its offsets, a
 * queue entry.
 */
template <bool PARENTS>
__device__ __forceinline__ void top_down(const Graph &g, const Search &s,
                                         const State &st, Accum *acc, Tally &t,
                                         Team team, const Ahead &ahead) {
  constexpr int K = BFS_TD_ITEMS;
  const uint32_t lane = lane_id(), warp = team.warp, warps = team.warps;
  const bool filter = st.frontier_edges > BFS_TD_FILTER_EDGES;
  const uint32_t count = st.small_count;
  const Entry *queue = s.small_queue(st.queue_parity);
  const uint32_t per = team.tile;
  const uint32_t tiles = count / per + (count % per != 0);
  // The lane's entry of the tile (the first may be loaded already).
  uint32_t v = ahead.entry.vertex, degree = ahead.entry.degree;
  uint64_t begin = ahead.entry.begin;
  bool loaded = ahead.loaded;
  for (uint32_t tile = warp; tile < tiles; tile += warps, loaded = false) {
    const uint32_t i = tile * per + lane;
    if (lane >= per || i >= count) {
      v = degree = 0;
      begin = 0;
    } else if (!loaded) {
      const Entry e = queue[i];
      v = e.vertex;
      degree = e.degree;
      begin = e.begin;
    }
    const uint32_t incl = warp_inclusive_scan<Sum32>(degree);
    const uint32_t excl = incl - degree;
    const uint32_t total = __shfl_sync(FULL_MASK, incl, WARP_THREADS - 1);
    for (uint32_t pass = 0; pass < total; pass += CHUNK_EDGES) {
      uint32_t nbr[K], src[K], mask = 0;
      if (loaded && pass == 0) {
        // The gathered items, cut to the real tile's edges; the rest.
        constexpr int A = BFS_GATHER_AHEAD ? AHEAD_ITEMS : 0;
        mask = gather<K, A>(g, incl, excl, total, begin, v, 0, nbr, src);
#pragma unroll
        for (int k = 0; k < A; ++k) {
          nbr[k] = ahead.nbr[k];
          src[k] = ahead.src[k];
          if (uint32_t(k) * WARP_THREADS + lane < total)
            mask |= ahead.mask & (1u << k);
        }
      } else {
        mask = gather<K>(g, incl, excl, total, begin, v, pass, nbr, src);
      }
      claim<PARENTS, K>(g, s, st, acc, t, filter, nbr, src, mask);
    }
  }
  const uint2 *items = s.item_queue(st.queue_parity);
  for (uint32_t j = warp; j < st.item_count; j += warps) {
    const uint2 item = items[j];
    const uint64_t end = g.offsets[item.x + 1];
    const uint64_t first = g.offsets[item.x] + uint64_t(item.y) * CHUNK_EDGES;
    uint32_t nbr[K], src[K], mask = 0;
#pragma unroll
    for (int k = 0; k < K; ++k) {
      const uint64_t e = first + uint32_t(k) * WARP_THREADS + lane;
      src[k] = item.x;
      nbr[k] = 0;
      if (e < end) {
        nbr[k] = g.cols[e];
        mask |= 1u << k;
      }
    }
    claim<PARENTS, K>(g, s, st, acc, t, filter, nbr, src, mask);
  }
}

/* Whether vertex u is set in bitmap bits. */

} // namespace bfs
} // namespace prism_cuda

#endif /* PRISM_BACKEND_CUDA_BFS_TOP_DOWN_CUH */
