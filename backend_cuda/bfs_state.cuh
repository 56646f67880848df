/* SPDX-License-Identifier: MIT */
/*
 * BFS: the step protocol and its state, shared by the persistent kernel and
 * the one-step-per-launch kernels (kernels_cl/bfs.cl has the same layout,
 * names and rules).
 *
 * A search is a sequence of steps k = 0, 1, ...; step k runs the phase of
 * its state S_k:
 *   TOP_DOWN   the frontier, as queues, claims its unvisited out-neighbours
 *              (visited bitmap, atomicOr) and queues them;
 *   BOTTOM_UP  every unvisited vertex looks for a visited in-neighbour;
 *              the visited bitmap is double-buffered (read the old, write
 *              the new), so the frontier needs no queue;
 *   CONVERT    after a bottom-up step, when the next is top-down: the
 *              vertices new in the bitmap become queues;
 *   DONE       nothing is left to find; S_k holds the result.
 * S_0 comes from bfs_init. For k > 0 every block derives S_k itself at the
 * start of step k, from S_{k-1} (state[(k-1) & 1]) and what step k-1 added
 * up (acc[(k-1) % 3]), so no block waits for another to publish a
 * decision: the only synchronisation between steps is the one that
 * separates them anyway (the grid barrier, or the kernel boundary). Block
 * 0 stores S_k at state[k & 1] for step k + 1, clears acc[(k+1) % 3] (last
 * read at step k - 1, next written at step k + 1), and copies a DONE state
 * to result, which the host reads.
 *
 * Direction (Beamer et al. 2012): after a top-down step go bottom-up when
 * m_f * alpha > m_u (m_f: the new frontier's out-edges; m_u: the in-edges
 * of unvisited vertices, what a bottom-up step may have to check); after a
 * bottom-up step go back (through CONVERT) when n_f * beta < n and the
 * frontier shrank. alpha = 0 never goes bottom-up.
 */
#ifndef PRISM_BACKEND_CUDA_BFS_STATE_CUH
#define PRISM_BACKEND_CUDA_BFS_STATE_CUH

#include <stdint.h>

namespace prism_cuda {
namespace bfs {

enum Phase : uint32_t {
  PHASE_TOP_DOWN = 0,
  PHASE_BOTTOM_UP = 1,
  PHASE_CONVERT = 2,
  PHASE_DONE = 3
};

/* S_k. 16-byte aligned and sized, for load_global. */
struct alignas(16) State {
  uint32_t phase;
  uint32_t level;          /* the frontier's distance from the source */
  uint32_t queue_parity;   /* top-down: queues[queue_parity] hold it */
  uint32_t visited_parity; /* visited[visited_parity] is current */
  uint32_t small_count;    /* frontier vertices in the small queue */
  uint32_t item_count;     /* items (edge chunks) of its large vertices */
  uint32_t pad[2];
  unsigned long long frontier_vertices; /* n_f */
  unsigned long long frontier_edges;    /* m_f: their out-edges */
  unsigned long long previous_vertices; /* n_f of the level before */
  unsigned long long unvisited_edges;   /* m_u: in-edges of unvisited */
  unsigned long long reached;           /* vertices with a level */
  unsigned long long reached_edges;     /* their out-edges */
  unsigned long long levels;            /* DONE: 1 + the largest level */
  unsigned long long pad2;
};

/* What a step adds up, atomically: the next queues' cursors and the new
 * frontier's size. */
struct alignas(16) Accum {
  uint32_t small, items;
  unsigned long long vertices, out_edges, in_edges;
};

/* grid_barrier, team_barrier: the counters of the barriers among all
 * blocks and among the team's (bfs.cu); resume: the step at which the
 * team handed back to the whole grid. */
struct Control {
  State state[2];
  State result;
  Accum acc[3];
  unsigned long long resume;
  unsigned int grid_barrier, team_barrier;
};

/* The switch thresholds (prism_bfs_options) and the vertex count. */
struct Heuristic {
  float alpha, beta;
  uint32_t n;
};

/* The phase after a step that found s's frontier, or DONE with the level
 * count: no frontier, no edge leaving it, or every vertex reached. */
__device__ __forceinline__ State choose(State s, bool after_bottom_up,
                                        const Heuristic &h) {
  if (s.frontier_vertices == 0) {
    s.phase = PHASE_DONE;
    s.levels = s.level;
  } else if (s.frontier_edges == 0 || s.reached == h.n) {
    s.phase = PHASE_DONE;
    s.levels = s.level + 1ull;
  } else if (!after_bottom_up) {
    s.phase = h.alpha > 0.0f && float(s.frontier_edges) * h.alpha >
                                    float(s.unvisited_edges)
                  ? PHASE_BOTTOM_UP
                  : PHASE_TOP_DOWN;
  } else {
    s.phase = float(s.frontier_vertices) * h.beta < float(h.n) &&
                      s.frontier_vertices < s.previous_vertices
                  ? PHASE_CONVERT
                  : PHASE_BOTTOM_UP;
  }
  return s;
}

/* S_k from S_{k-1} and what step k-1 added up. */
__device__ __forceinline__ State advance(State s, const Accum &a,
                                         const Heuristic &h) {
  if (s.phase == PHASE_DONE)
    return s;
  if (s.phase == PHASE_CONVERT) {
    s.phase = PHASE_TOP_DOWN;
    s.queue_parity ^= 1u;
    s.small_count = a.small;
    s.item_count = a.items;
    return s;
  }
  const bool bottom_up = s.phase == PHASE_BOTTOM_UP;
  if (bottom_up) {
    s.visited_parity ^= 1u;
  } else {
    s.queue_parity ^= 1u;
    s.small_count = a.small;
    s.item_count = a.items;
  }
  s.level += 1u;
  s.previous_vertices = s.frontier_vertices;
  s.frontier_vertices = a.vertices;
  s.frontier_edges = a.out_edges;
  s.reached += a.vertices;
  s.reached_edges += a.out_edges;
  s.unvisited_edges -= a.in_edges;
  return choose(s, bottom_up, h);
}

/* A State or Accum written by other blocks, loaded past the SM's L1. */
template <class T> __device__ __forceinline__ T load_global(const T *p) {
  static_assert(sizeof(T) % 16 == 0, "whole 16-byte words");
  union {
    T value;
    uint4 words[sizeof(T) / 16];
  } u;
  const uint4 *src = reinterpret_cast<const uint4 *>(p);
#pragma unroll
  for (int i = 0; i < int(sizeof(T) / 16); ++i)
    u.words[i] = __ldcg(src + i);
  return u.value;
}

} // namespace bfs
} // namespace prism_cuda

#endif /* PRISM_BACKEND_CUDA_BFS_STATE_CUH */
