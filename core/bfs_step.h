/* SPDX-License-Identifier: MIT */
/*
 * BFS: the step protocol both backends run, and the state it passes from
 * step to step. One definition for the CUDA kernels (backend_cuda/
 * bfs_state.cuh), the OpenCL kernels (embedded ahead of kernels_cl/bfs.cl)
 * and the OpenCL host code that reads the result (backend_opencl/bfs.c);
 * tests/test_protocol.c checks that the OpenCL compiler lays the state out
 * as the host does. Valid C, C++ (nvcc) and OpenCL C.
 *
 * A search is a sequence of steps k = 0, 1, ...; step k runs the phase of
 * its state S_k:
 *   TOP_DOWN   the frontier, as queues, claims its unvisited out-neighbours
 *              (visited bitmap, atomic or) and queues them;
 *   BOTTOM_UP  every unvisited vertex looks for a visited in-neighbour;
 *              the visited bitmap is double-buffered (read the old, write
 *              the new), so the frontier needs no queue;
 *   CONVERT    after a bottom-up step, when the next is top-down: the
 *              vertices new in the bitmap become queues;
 *   DONE       nothing is left to find; S_k holds the result.
 * S_0 comes from the search's init (prism_bfs_choose on the source alone).
 * For k > 0 every group derives S_k itself at the start of step k, from
 * S_{k-1} (state[(k-1) & 1]) and what step k-1 added up (acc[(k-1) % 3]),
 * with prism_bfs_advance, so no group waits for another to publish a
 * decision: the only synchronisation between steps is the one that
 * separates them anyway (the grid barrier, or the kernel boundary). Group
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
#ifndef PRISM_BFS_STEP_H
#define PRISM_BFS_STEP_H

/* The types of each compiler, and how its functions here are declared. */
#if defined(__OPENCL_C_VERSION__)
#define PRISM_BFS_FN
#define PRISM_BFS_U32 uint
#define PRISM_BFS_U64 ulong
#define PRISM_BFS_ALIGN16
#elif defined(__CUDACC__)
#define PRISM_BFS_FN __host__ __device__ __forceinline__
#define PRISM_BFS_U32 unsigned int
#define PRISM_BFS_U64 unsigned long long
/* For the kernels' 16-byte loads of a state other blocks wrote. */
#define PRISM_BFS_ALIGN16 __align__(16)
#else
#define PRISM_BFS_FN static inline
#define PRISM_BFS_U32 unsigned int
#define PRISM_BFS_U64 unsigned long long
#define PRISM_BFS_ALIGN16
#endif

#define PRISM_BFS_PHASE_TOP_DOWN 0u
#define PRISM_BFS_PHASE_BOTTOM_UP 1u
#define PRISM_BFS_PHASE_CONVERT 2u
#define PRISM_BFS_PHASE_DONE 3u

/* S_k. Every field at its natural alignment, no padding: 96 bytes and the
 * same offsets on every compiler (alignment aside, which only CUDA's
 * vector loads ask for). */
typedef struct PRISM_BFS_ALIGN16 prism_bfs_state {
  PRISM_BFS_U32 phase;
  PRISM_BFS_U32 level;          /* the frontier's distance from the source */
  PRISM_BFS_U32 queue_parity;   /* top-down: queues[queue_parity] hold it */
  PRISM_BFS_U32 visited_parity; /* visited[visited_parity] is current */
  PRISM_BFS_U32 small_count;    /* frontier vertices in the small queue */
  PRISM_BFS_U32 item_count;     /* items (edge chunks) of large vertices */
  PRISM_BFS_U32 pad[2];
  PRISM_BFS_U64 frontier_vertices; /* n_f */
  PRISM_BFS_U64 frontier_edges;    /* m_f: their out-edges */
  PRISM_BFS_U64 previous_vertices; /* n_f of the level before */
  PRISM_BFS_U64 unvisited_edges;   /* m_u: in-edges of unvisited vertices */
  PRISM_BFS_U64 reached;           /* vertices with a level */
  PRISM_BFS_U64 reached_edges;     /* their out-edges */
  PRISM_BFS_U64 levels;            /* DONE: 1 + the largest level */
  PRISM_BFS_U64 pad2;
} prism_bfs_state;

#define PRISM_BFS_STATE_BYTES 96
/* Where the host finds the result's phase and level count. */
#define PRISM_BFS_STATE_PHASE_AT 0
#define PRISM_BFS_STATE_LEVELS_AT 80

/* What step k-1 added up, as each backend reads its accumulators: the
 * next queues' cursors and the new frontier's size. */
typedef struct prism_bfs_sums {
  PRISM_BFS_U32 small, items;
  PRISM_BFS_U64 vertices, out_edges, in_edges;
} prism_bfs_sums;

/* The direction switch's thresholds (prism_bfs_options) and the vertex
 * count. */
typedef struct prism_bfs_switch {
  float alpha, beta;
  PRISM_BFS_U32 n;
} prism_bfs_switch;

/* The phase after a step that found s's frontier, or DONE with the level
 * count: no frontier, no edge leaving it, or every vertex reached. */
PRISM_BFS_FN prism_bfs_state prism_bfs_choose(prism_bfs_state s,
                                              int after_bottom_up,
                                              prism_bfs_switch h) {
  if (s.frontier_vertices == 0) {
    s.phase = PRISM_BFS_PHASE_DONE;
    s.levels = s.level;
  } else if (s.frontier_edges == 0 || s.reached == h.n) {
    s.phase = PRISM_BFS_PHASE_DONE;
    s.levels = (PRISM_BFS_U64)s.level + 1u;
  } else if (!after_bottom_up) {
    s.phase = h.alpha > 0.0f && (float)s.frontier_edges * h.alpha >
                                    (float)s.unvisited_edges
                  ? PRISM_BFS_PHASE_BOTTOM_UP
                  : PRISM_BFS_PHASE_TOP_DOWN;
  } else {
    s.phase = (float)s.frontier_vertices * h.beta < (float)h.n &&
                      s.frontier_vertices < s.previous_vertices
                  ? PRISM_BFS_PHASE_CONVERT
                  : PRISM_BFS_PHASE_BOTTOM_UP;
  }
  return s;
}

/* S_k from S_{k-1} and what step k-1 added up. */
PRISM_BFS_FN prism_bfs_state prism_bfs_advance(prism_bfs_state s,
                                               prism_bfs_sums a,
                                               prism_bfs_switch h) {
  if (s.phase == PRISM_BFS_PHASE_DONE)
    return s;
  if (s.phase == PRISM_BFS_PHASE_CONVERT) {
    s.phase = PRISM_BFS_PHASE_TOP_DOWN;
    s.queue_parity ^= 1u;
    s.small_count = a.small;
    s.item_count = a.items;
    return s;
  }
  const int bottom_up = s.phase == PRISM_BFS_PHASE_BOTTOM_UP;
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
  return prism_bfs_choose(s, bottom_up, h);
}

#endif /* PRISM_BFS_STEP_H */
