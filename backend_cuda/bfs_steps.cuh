/* SPDX-License-Identifier: MIT */
/*
 * BFS: the work of one step (bfs_state.cuh says which), done by every warp
 * of the team over its share; bfs.cu wraps it in kernels. The steps are
 * bfs_top_down.cuh, bfs_bottom_up.cuh and bfs_convert.cuh (each says who
 * owns what), over the data of bfs_search.cuh. Partial counts meet per
 * block in shared memory, then in the step's Accum (global atomics, one
 * per block and counter: flush). The OpenCL port (kernels_cl/bfs.cl) has
 * the same phases and names, with the work-group in the role of the warp.
 */
#ifndef PRISM_BACKEND_CUDA_BFS_STEPS_CUH
#define PRISM_BACKEND_CUDA_BFS_STEPS_CUH

#include "bfs_bottom_up.cuh"
#include "bfs_convert.cuh"
#include "bfs_top_down.cuh"

#include <stdint.h>

namespace prism_cuda {
namespace bfs {

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
    if (cur.phase == PRISM_BFS_PHASE_DONE)
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
  case PRISM_BFS_PHASE_TOP_DOWN:
    top_down<PARENTS>(g, s, st, acc, t, team, ahead);
    break;
  case PRISM_BFS_PHASE_BOTTOM_UP:
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
