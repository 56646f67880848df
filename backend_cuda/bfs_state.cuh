/* SPDX-License-Identifier: MIT */
/*
 * BFS: the step protocol of core/bfs_step.h (its state, prism_bfs_choose
 * and prism_bfs_advance, shared with kernels_cl/bfs.cl), and the CUDA
 * search's control block, shared by the persistent kernel and the
 * one-step-per-launch kernels.
 */
#ifndef PRISM_BACKEND_CUDA_BFS_STATE_CUH
#define PRISM_BACKEND_CUDA_BFS_STATE_CUH

#include "bfs_step.h"

#include <stddef.h>
#include <stdint.h>

namespace prism_cuda {
namespace bfs {

/* S_k, 16-byte aligned and sized for load_global. */
using State = prism_bfs_state;
static_assert(sizeof(State) == PRISM_BFS_STATE_BYTES && alignof(State) == 16 &&
                  offsetof(State, phase) == PRISM_BFS_STATE_PHASE_AT &&
                  offsetof(State, levels) == PRISM_BFS_STATE_LEVELS_AT,
              "core/bfs_step.h's layout");

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

/* S_k from S_{k-1} and what step k-1 added up (core/bfs_step.h). */
__device__ __forceinline__ State advance(State s, const Accum &a,
                                         const prism_bfs_switch &h) {
  return prism_bfs_advance(
      s, prism_bfs_sums{a.small, a.items, a.vertices, a.out_edges, a.in_edges},
      h);
}

/* A State or Accum written by other blocks, loaded past the SM's L1. The
 * uint4 loads need p 16-byte aligned: it is always in the Control block at
 * the start of the context's scratch (cudaMalloc'd, 256-byte aligned),
 * never in a caller's buffer, so views do not reach it. */
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
