/* SPDX-License-Identifier: MIT */
/*
 * BFS: what every step works on (bfs_state.cuh: the step protocol; the
 * steps: bfs_top_down.cuh, bfs_bottom_up.cuh, bfs_convert.cuh, run by
 * bfs_steps.cuh). The OpenCL port (kernels_cl/bfs.cl) has the same
 * phases and names, with the work-group in the role of the warp.
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
 * Who works: a Team, the warps of the blocks taking part in the step
 * (the whole grid, or the persistent kernel's team of a few blocks for a
 * small top-down step), numbered across the blocks first (team_of);
 * warp w of W takes tiles w, w + W, ...; queue cursors take one atomicAdd
 * per warp and pass (reserve).
 */
#ifndef PRISM_BACKEND_CUDA_BFS_SEARCH_CUH
#define PRISM_BACKEND_CUDA_BFS_SEARCH_CUH

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
  prism_bfs_switch heuristic;

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

} // namespace bfs
} // namespace prism_cuda

#endif /* PRISM_BACKEND_CUDA_BFS_SEARCH_CUH */
