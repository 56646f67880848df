/* SPDX-License-Identifier: MIT */
/*
 * BFS: the work of one step (bfs_state.cuh says which), done by every warp
 * of the grid over its share; bfs.cu wraps it in kernels. The OpenCL port
 * (kernels_cl/bfs.cl) has the same phases and names, with the work-group
 * in the role of the warp.
 *
 * Layout (device memory, the scratch pool; bfs.cu carves it):
 *   visited[2]  bitmaps of ceil(n / 32) words: bit v set once v has a
 *               level. Bits past n are set, so they never look unvisited.
 *   small[2]    queues of Entry (vertex, out-degree, first out-edge):
 *               frontier vertices of out-degree <= BFS_SMALL_DEGREE
 *               (and, queued by a small top-down step, larger ones with
 *               no edges here: theirs go out as items).
 *   items[2]    queues of (vertex, chunk): the larger vertices, cut into
 *               chunks of CHUNK_EDGES out-edges.
 * Queues and bitmaps alternate between steps by parity (State).
 *
 * Who owns what: a top-down step claims a vertex by setting its visited
 * bit (atomicOr); the one claimant writes its level and parent and queues
 * it. In a bottom-up step each warp owns 32 vertices (one bitmap word): it
 * alone writes their levels, parents and new bitmap word, no atomics.
 * Partial counts meet per block in shared memory, then in the step's
 * Accum (global atomics, one per block and counter); queue cursors take
 * one atomicAdd per warp and pass.
 *
 * Who works: a Team, the warps of the blocks taking part in the step
 * (the whole grid, or the persistent kernel's team of a few blocks for a
 * small top-down step), numbered across the blocks first (team_of);
 * warp w of W takes tiles w, w + W, ...
 */
#ifndef PRISM_BACKEND_CUDA_BFS_STEPS_CUH
#define PRISM_BACKEND_CUDA_BFS_STEPS_CUH

#include "bfs_state.cuh"
#include "block.cuh"
#include "ops.cuh"

#include <stdint.h>

namespace prism_cuda {
namespace bfs {

/* Edges one warp handles in a top-down pass; a large vertex's items hold
 * as many. */
constexpr uint32_t CHUNK_EDGES = uint32_t(WARP_THREADS) * BFS_TD_ITEMS;

using Sum32 = Op<uint32_t, PRISM_SUM>;
using Sum64 = Op<unsigned long long, PRISM_SUM>;

/* The CSR and its transpose (the same arrays for an undirected graph). */
struct Graph {
  const uint64_t *offsets;
  const uint32_t *cols;
  const uint64_t *in_offsets;
  const uint32_t *in_cols;
  uint64_t m;        /* edges */
  uint32_t n, words; /* vertices; bitmap words, ceil(n / 32) */
  uint32_t directed; /* in_offsets != offsets */
};

/* A small-queue entry: a frontier vertex with its out-edge range, so
 * that the step expanding it loads one 16-byte entry and then its
 * columns (the claimant read the offsets when it queued the vertex). A
 * vertex queued as items has degree 0 here. */
struct alignas(16) Entry {
  uint32_t vertex, degree;
  unsigned long long begin;
};

/* The search's device memory. */
struct Search {
  Control *control;
  uint32_t *visited[2];
  Entry *small[2];
  uint2 *items[2];
  uint32_t item_capacity; /* entries of each items queue */
  int32_t *levels;
  int32_t *parents; /* NULL without parents */
  Heuristic heuristic;

  // By parity, without indexing the arrays (which would copy a kernel
  // parameter to local memory).
  __device__ __forceinline__ uint32_t *bitmap(uint32_t p) const {
    return p ? visited[1] : visited[0];
  }
  __device__ __forceinline__ Entry *small_queue(uint32_t p) const {
    return p ? small[1] : small[0];
  }
  __device__ __forceinline__ uint2 *item_queue(uint32_t p) const {
    return p ? items[1] : items[0];
  }
};

/* A thread's share of the counts a step adds up. */
struct Tally {
  unsigned long long vertices, out_edges, in_edges;
};

/* Shared memory of a step's block. */
struct StepSmem {
  State state;
  unsigned long long step; /* k of state */
  Tally warps[BFS_THREADS / WARP_THREADS];
};

/* The warps taking part in a step: this one is warp of warps; a warp
 * takes tile vertices of the small queue at a time. */
struct Team {
  uint32_t warp, warps, tile;
};

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

/* Every warp of blocks 0 .. blocks - 1, tile vertices at a time. Warps
 * are numbered across the blocks first (warp i of block b is number
 * i * blocks + b), so a step with fewer tiles than warps spreads its
 * tiles over as many SMs as it can rather than filling a few. */
__device__ __forceinline__ Team team_of(uint32_t blocks, uint32_t tile) {
  constexpr uint32_t WARPS = BFS_THREADS / WARP_THREADS;
  return Team{uint32_t(warp_id()) * blocks + blockIdx.x, blocks * WARPS, tile};
}

/* Every warp of the grid. */
__device__ __forceinline__ Team whole_grid() {
  return team_of(gridDim.x, WARP_THREADS);
}

/* Items of a vertex of out-degree d. */
__device__ __forceinline__ uint32_t chunks_of(uint64_t d) {
  return uint32_t((d + CHUNK_EDGES - 1) / CHUNK_EDGES);
}

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

/*
 * warp_reserve: places for this lane's count entries at cursor, in lane
 * order: the warp's total takes one atomicAdd. Every lane calls it.
 */
__device__ __forceinline__ uint32_t warp_reserve(uint32_t *cursor,
                                                 uint32_t count) {
  const uint32_t incl = warp_inclusive_scan<Sum32>(count);
  const uint32_t total = __shfl_sync(FULL_MASK, incl, WARP_THREADS - 1);
  uint32_t base = 0;
  if (lane_id() == 0 && total)
    base = atomicAdd(cursor, total);
  return __shfl_sync(FULL_MASK, base, 0) + incl - count;
}

/* reserve: warp_reserve on the small-queue and item cursors at once (both
 * atomicAdds in flight together). Every lane calls it. */
__device__ __forceinline__ void reserve(Accum *acc, uint32_t small,
                                        uint32_t items, uint32_t &small_at,
                                        uint32_t &items_at) {
  const uint32_t small_incl = warp_inclusive_scan<Sum32>(small);
  const uint32_t items_incl = warp_inclusive_scan<Sum32>(items);
  const uint32_t small_total =
      __shfl_sync(FULL_MASK, small_incl, WARP_THREADS - 1);
  const uint32_t items_total =
      __shfl_sync(FULL_MASK, items_incl, WARP_THREADS - 1);
  uint32_t small_base = 0, items_base = 0;
  if (lane_id() == 0) {
    if (small_total)
      small_base = atomicAdd(&acc->small, small_total);
    if (items_total)
      items_base = atomicAdd(&acc->items, items_total);
  }
  small_at = __shfl_sync(FULL_MASK, small_base, 0) + small_incl - small;
  items_at = __shfl_sync(FULL_MASK, items_base, 0) + items_incl - items;
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

/* The block's tallies into the step's Accum: one atomicAdd per counter
 * and block, none for zeros. Every thread calls it. */
__device__ __forceinline__ void flush(const Tally &t, Accum *acc,
                                      StepSmem &smem) {
  Tally w;
  w.vertices = warp_reduce<Sum64>(t.vertices);
  w.out_edges = warp_reduce<Sum64>(t.out_edges);
  w.in_edges = warp_reduce<Sum64>(t.in_edges);
  if (lane_id() == 0)
    smem.warps[warp_id()] = w;
  __syncthreads();
  if (threadIdx.x == 0) {
    Tally b = smem.warps[0];
    for (int i = 1; i < BFS_THREADS / WARP_THREADS; ++i) {
      b.vertices += smem.warps[i].vertices;
      b.out_edges += smem.warps[i].out_edges;
      b.in_edges += smem.warps[i].in_edges;
    }
    if (b.vertices) {
      atomicAdd(&acc->vertices, b.vertices);
      atomicAdd(&acc->out_edges, b.out_edges);
      atomicAdd(&acc->in_edges, b.in_edges);
    }
  }
}

/*
 * derive_state: S_k into smem.state (k into smem.step), by one thread of
 * every block taking part (block 0 also publishes it, clears the
 * accumulator of step k + 1 and keeps a DONE state as the result); the
 * block's barrier after it is the caller's. Deriving S_k again gives the
 * same state and the same stores: it reads state[(k-1) & 1] and
 * acc[(k-1) % 3], and writes neither.
 */
__device__ __forceinline__ void
derive_state(const Search &s, unsigned long long k, StepSmem &smem) {
  Control *c = s.control;
  const State cur =
      k == 0 ? load_global(&c->state[0])
             : advance(load_global(&c->state[(k - 1) & 1]),
                       load_global(&c->acc[(k - 1) % 3]), s.heuristic);
  smem.state = cur;
  smem.step = k;
  if (blockIdx.x == 0) {
    c->state[k & 1] = cur;
    c->acc[(k + 1) % 3] = Accum{};
    if (cur.phase == PHASE_DONE)
      c->result = cur;
  }
}

/* derive: derive_state by thread 0, then the block's barrier. */
__device__ __forceinline__ void derive(const Search &s, unsigned long long k,
                                       StepSmem &smem) {
  if (threadIdx.x == 0)
    derive_state(s, k, smem);
  __syncthreads();
}

/* work: the share of this block's warps in step k, whose state derive
 * left in smem.state (not DONE), by the team's warps (a top-down step
 * takes its first tile from ahead where that is loaded); then the
 * block's tallies. Every thread of the block calls it. */
template <bool PARENTS>
__device__ __forceinline__ void work(const Graph &g, const Search &s,
                                     unsigned long long k, StepSmem &smem,
                                     Team team, const Ahead &ahead) {
  const State &st = smem.state;
  Accum *acc = &s.control->acc[k % 3];
  Tally t{0, 0, 0};
  switch (st.phase) {
  case PHASE_TOP_DOWN:
    top_down<PARENTS>(g, s, st, acc, t, team, ahead);
    break;
  case PHASE_BOTTOM_UP:
    bottom_up<PARENTS>(g, s, st, t, team);
    break;
  default:
    convert(g, s, st, acc, team);
    break;
  }
  flush(t, acc, smem);
}

} // namespace bfs
} // namespace prism_cuda

#endif /* PRISM_BACKEND_CUDA_BFS_STEPS_CUH */
