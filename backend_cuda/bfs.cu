/* SPDX-License-Identifier: MIT */
/*
 * Breadth-first search, direction-optimising (Beamer et al. 2012): top-down
 * steps over frontier queues while the frontier is small, bottom-up steps
 * over the unvisited vertices while it is large (bfs_state.cuh: the step
 * protocol and the switch; bfs_steps.cuh: the work of each step).
 *
 * The level loop stays on the device. bfs_init seeds the search; then
 * - bfs_persistent, one cooperative launch of one full wave of blocks,
 *   runs every step with a grid barrier between them, so a grid with
 *   thousands of levels pays no host round trip per level. A barrier's
 *   cost grows with the blocks that meet at it, and a level of a grid
 *   graph is a few thousand vertices: a top-down step whose frontier
 *   fits one tile per warp of BFS_TEAM_BLOCKS blocks runs on that team
 *   alone, step after step with a barrier among the team only, while
 *   the other blocks wait at the grid barrier; the team joins them there
 *   at the first step that does not fit (or DONE), and the whole grid
 *   goes on from that step;
 * - or, where a cooperative launch cannot be made (or is configured off),
 *   bfs_step, one launch per step, queued in growing batches: each launch
 *   derives its step from device memory and does nothing once the search
 *   is done; the host reads the done flag once per batch. A batch of
 *   fewer than BFS_OVERLAP_BATCH steps waits for its own flag (most
 *   searches end within the first batches, and every launch queued past
 *   the end costs its enqueue and a short run); from there on the next
 *   batch is queued before the flag of the one before is read, so the
 *   device stays busy across read-backs.
 * The host waits for the end (prism_bfs returns counts).
 *
 * Scratch (one request, carved at 256 bytes): Control (states and step
 * accumulators), the two visited bitmaps, the two small queues, the two
 * item queues.
 */
#include "bfs_steps.cuh"
#include "cuda_internal.h"

#include <stdint.h>
#include <string.h>

namespace prism_cuda {
namespace bfs {
namespace {

/*
 * bfs_init: one warp seeds the search: the source's visited bit and the
 * bits past n in the (zeroed) first bitmap, its level and parent, its
 * queue entry (or items, written by the warp), and S_0.
 */
__global__ void bfs_init(Graph g, Search s, uint32_t source) {
  const uint64_t degree = g.offsets[source + 1] - g.offsets[source];
  const uint32_t items = degree > BFS_SMALL_DEGREE ? chunks_of(degree) : 0u;
  for (uint32_t j = lane_id(); j < items && j < s.item_capacity;
       j += WARP_THREADS)
    s.items[0][j] = make_uint2(source, j);
  if (lane_id() != 0)
    return;
  uint32_t *bits = s.visited[0];
  bits[source >> 5] |= 1u << (source & 31u);
  if (g.n % WARP_THREADS)
    bits[g.words - 1] |= ~0u << (g.n % WARP_THREADS);
  s.levels[source] = 0;
  if (s.parents)
    s.parents[source] = int32_t(source);
  if (!items)
    s.small[0][0] = Entry{source, uint32_t(degree), g.offsets[source]};
  const uint64_t in_degree =
      g.directed ? g.in_offsets[source + 1] - g.in_offsets[source] : degree;
  State st;
  memset(&st, 0, sizeof st);
  st.small_count = items ? 0u : 1u;
  st.item_count = items;
  st.frontier_vertices = 1;
  st.frontier_edges = degree;
  st.unvisited_edges = g.m - in_degree;
  st.reached = 1;
  st.reached_edges = degree;
  st = prism_bfs_choose(st, 0, s.heuristic);
  s.control->state[0] = st;
  if (st.phase == PRISM_BFS_PHASE_DONE)
    s.control->result = st;
}

/* Whether the team (team_warps warps) takes step S alone: a top-down
 * step with at most one tile (BFS_TEAM_TILE vertices) and one item per
 * warp. */
__device__ __forceinline__ bool team_step(const State &st,
                                          uint32_t team_warps) {
  return st.phase == PRISM_BFS_PHASE_TOP_DOWN &&
         st.small_count <= team_warps * BFS_TEAM_TILE &&
         st.item_count <= team_warps;
}

/* The warps of a step: the team's (team_blocks blocks, tiles of
 * BFS_TEAM_TILE) for a team step, else the whole grid's. A guess of the
 * first tile made with one holds for a step run with the same. */
__device__ __forceinline__ Team step_team(bool team, uint32_t team_blocks) {
  return team ? team_of(team_blocks, BFS_TEAM_TILE) : whole_grid();
}

/* An acquire load at GPU scope: the barriers' polls. The load that sees
 * what a poll waits for orders what the thread does after it, so no
 * fence follows. */
__device__ __forceinline__ unsigned int load_acquire(const unsigned int *p) {
  unsigned int v;
  asm volatile("ld.acquire.gpu.global.u32 %0, [%1];"
               : "=r"(v)
               : "l"(p)
               : "memory");
  return v;
}

/*
 * await_outside: block 0 at the end of a team step. The blocks outside the
 * team derived the first step of this run of team steps from the state
 * slot and accumulator that the team's next derive overwrites (the team
 * does not wait for them); so once per run (passed[2]: the grid barriers
 * passed at the last wait), thread 0 waits until all of them have
 * arrived at the grid barrier (the low bits of its counter, which block 0
 * has not reached), after which they read nothing until the team joins
 * them. Called in the team barrier.
 */
__device__ __forceinline__ void await_outside(const unsigned int *counter,
                                              unsigned int outside,
                                              unsigned int *passed) {
  if (passed[2] != passed[0]) {
    passed[2] = passed[0];
    while ((load_acquire(counter) & 0x7FFFFFFFu) != outside)
      ;
  }
}

/*
 * The grid barrier (team false: all blocks, on c->grid_barrier) or the
 * team's (blocks 0 .. blocks - 1, on c->team_barrier), each on a counter
 * zero at the start of the search, as the grid barrier of cooperative
 * groups: block 0 adds 2^31 - (blocks - 1), the others 1, so the top bit
 * flips when the last arrives. The arrival is a reduction (release), not an
 * atomic whose old value comes back: a block knows which flip it waits for from
 * the barriers of the kind it has passed (passed[team], thread 0's counts in
 * shared memory), and polls from the moment it has arrived, with acquire
 * loads (faster than relaxed polls and a fence after the flip:
 * docs/results/tuning-cuda.md#bfs). Block 0 runs
 * await_outside before it arrives at a team barrier.
 */
__device__ __forceinline__ void
barrier(Control *c, bool team, unsigned int blocks, unsigned int *passed) {
  __syncthreads();
  if (threadIdx.x == 0) {
    if (team && blockIdx.x == 0)
      await_outside(&c->grid_barrier, gridDim.x - blocks, passed);
    unsigned int *counter = team ? &c->team_barrier : &c->grid_barrier;
    const unsigned int add = blockIdx.x == 0 ? 0x80000000u - (blocks - 1) : 1u;
    const unsigned int flipped = (++passed[team] & 1u) << 31;
    asm volatile("red.release.gpu.global.add.u32 [%0], %1;" ::"l"(counter),
                 "r"(add)
                 : "memory");
    while ((load_acquire(counter) & 0x80000000u) != flipped)
      ;
  }
  __syncthreads();
}

/*
 * bfs_persistent: every step of the search in one cooperative launch (all
 * blocks resident). Every block derives the same states, so all decide
 * alike: a step team_step admits runs on the team (blocks below
 * team_blocks; 0: no team), with a team barrier after it, while the other
 * blocks wait at the grid barrier; the team joins them there at the first
 * step it does not admit (after publishing that step's number), and every
 * block derives that step again. Any other step runs on the whole grid,
 * with a grid barrier after it (await_outside says when the team waits
 * for the others). All leave together at DONE. One call of
 * work serves both, so the kernel holds one copy of the steps' code.
 * After a top-down or convert step a block knows where the next step's
 * small queue is before it knows that step: each warp loads its first
 * tile of it and gathers that tile's first pass (the columns) while S_k
 * is being derived, so a small step's chain of dependent loads is two
 * round trips shorter (entries, then columns, are its first links, and a
 * level of a grid graph is one tile per warp). S_k is derived by a
 * thread of the last warp, which takes a tile only in the largest steps,
 * so the warps with a tile do not wait for it before they gather
 * (BFS_GATHER_AHEAD; docs/results/tuning-cuda.md#bfs).
 */
template <bool PARENTS>
__global__ void
__launch_bounds__(BFS_THREADS, min_blocks_for_arch(BFS_MIN_BLOCKS, BFS_THREADS))
    bfs_persistent(Graph g, Search s, unsigned int team_blocks) {
  __shared__ StepSmem smem;
  // Barriers passed (grid, team); grid barriers at await_outside's last wait.
  __shared__ unsigned int passed[3];
  constexpr uint32_t WARPS = BFS_THREADS / WARP_THREADS;
  if (threadIdx.x == 0) {
    passed[0] = passed[1] = 0;
    passed[2] = ~0u;
  }
  bool in_team = false;
  // Set after a top-down or convert step: step k's small queue, if it is
  // top-down, is small[ahead_parity].
  bool ahead_known = false;
  uint32_t ahead_parity = 0;
  for (unsigned long long k = 0;;) {
    // The warp's first tile, gathered while S_k is derived (by a thread
    // of the last warp, which takes a tile only in the largest steps).
    // (Team steps follow team steps: their tile is the guess in a team.)
    Ahead ahead;
    ahead.entry = Entry{0, 0, 0};
    ahead.loaded = false;
    ahead.mask = 0;
    const Team guess = step_team(in_team, team_blocks);
    if (threadIdx.x == BFS_THREADS - WARP_THREADS)
      derive_state(s, k, smem);
    if (ahead_known)
      gather_ahead(g,
                   load_ahead(g, s.small_queue(ahead_parity),
                              guess.warp * guess.tile, guess.tile),
                   ahead);
    __syncthreads();
    const bool small =
        team_blocks && team_step(smem.state, team_blocks * WARPS);
    if (in_team != small && (in_team || blockIdx.x >= team_blocks)) {
      // The team hands back (or this block waits while the team works).
      if (in_team && blockIdx.x == 0 && threadIdx.x == 0)
        s.control->resume = k;
      in_team = false;
      ahead_known = false;
      barrier(s.control, false, gridDim.x, passed);
      k = __ldcg(&s.control->resume);
      continue; // every block derives S_k again
    }
    const State &st = smem.state;
    if (st.phase == PRISM_BFS_PHASE_DONE)
      return;
    const Team team = step_team(small, team_blocks);
    ahead.loaded =
        ahead_known && st.queue_parity == ahead_parity && in_team == small;
    work<PARENTS>(g, s, k, smem, team, ahead);
    // The loop's state again, from shared memory: none of it stays in
    // registers through the step's work.
    in_team = team_blocks && team_step(st, team_blocks * WARPS);
    ahead_known = st.phase == PRISM_BFS_PHASE_TOP_DOWN ||
                  st.phase == PRISM_BFS_PHASE_CONVERT;
    ahead_parity = st.queue_parity ^ 1u;
    k = smem.step + 1;
    if (in_team)
      barrier(s.control, true, team_blocks, passed);
    else
      barrier(s.control, false, gridDim.x, passed);
  }
}

/* bfs_step: step k alone (one launch per step). */
template <bool PARENTS>
__global__ void
__launch_bounds__(BFS_THREADS, min_blocks_for_arch(BFS_MIN_BLOCKS, BFS_THREADS))
    bfs_step(Graph g, Search s, unsigned long long k) {
  __shared__ StepSmem smem;
  derive(s, k, smem);
  if (smem.state.phase != PRISM_BFS_PHASE_DONE)
    work<PARENTS>(g, s, k, smem, whole_grid(), Ahead{Entry{0, 0, 0}, false});
}

/* Byte offsets of the scratch regions. */
struct Layout {
  size_t visited, visited_bytes; /* per bitmap */
  size_t small, small_bytes;     /* per queue */
  size_t items, items_bytes;
  size_t item_capacity;
  size_t total;
};

/* Items a step may queue: a large vertex of out-degree d gives
 * ceil(d / CHUNK_EDGES) <= d / CHUNK_EDGES + 1, and a frontier holds each
 * vertex once, so at most m / CHUNK_EDGES + (large vertices). */
Layout plan(size_t n, size_t m) {
  Layout l;
  const size_t words = (n + WARP_THREADS - 1) / WARP_THREADS;
  const size_t large = m / (BFS_SMALL_DEGREE + 1);
  l.item_capacity = (large < n ? large : n) + m / CHUNK_EDGES + 1;
  l.visited = prism__cuda_align(sizeof(Control));
  l.visited_bytes = prism__cuda_align(words * sizeof(uint32_t));
  l.small = l.visited + 2 * l.visited_bytes;
  l.small_bytes = prism__cuda_align(n * sizeof(Entry));
  l.items = l.small + 2 * l.small_bytes;
  l.items_bytes = prism__cuda_align(l.item_capacity * sizeof(uint2));
  l.total = l.items + 2 * l.items_bytes;
  return l;
}

/* Pinned flags of the batches in flight, after the result slot's State. */
constexpr size_t FLAG_OFFSET = 128;
static_assert(sizeof(State) <= FLAG_OFFSET &&
                  FLAG_OFFSET + 2 * sizeof(uint32_t) <=
                      PRISM__CUDA_RESULT_BYTES,
              "the State and two flags fit the pinned result slot");

/* Whether one cooperative launch may run the search: configured, and a
 * device that can, without a watchdog that would cut a long kernel. */
bool cooperative(prism__cuda_ctx *c) {
  int coop = 0, watchdog = 0;
  if (!BFS_COOPERATIVE ||
      cudaDeviceGetAttribute(&coop, cudaDevAttrCooperativeLaunch, c->device) !=
          cudaSuccess ||
      cudaDeviceGetAttribute(&watchdog, cudaDevAttrKernelExecTimeout,
                             c->device) != cudaSuccess) {
    (void)cudaGetLastError();
    return false;
  }
  return coop && !watchdog;
}

/* Blocks of one full wave of kernel (at most BFS_WAVE_PER_SM per SM where
 * that is set). */
template <class K>
prism_status wave(prism_context *ctx, prism__cuda_ctx *c, K kernel,
                  unsigned *blocks) {
  int per_sm = 0;
  PRISM_CUDA_TRY(ctx, cudaOccupancyMaxActiveBlocksPerMultiprocessor, &per_sm,
                 kernel, BFS_THREADS, 0);
  if (BFS_WAVE_PER_SM > 0 && per_sm > BFS_WAVE_PER_SM)
    per_sm = BFS_WAVE_PER_SM;
  *blocks = unsigned(per_sm > 0 ? per_sm : 1) * unsigned(c->sm_count);
  return PRISM_OK;
}

/* The persistent launch; *ran = false when the device refused a
 * cooperative grid of this size (then the caller goes step by step). */
template <bool PARENTS>
prism_status run_persistent(prism_context *ctx, prism__cuda_ctx *c, Graph g,
                            Search s, bool *ran) {
  *ran = false;
  unsigned blocks = 0;
  prism_status st = wave(ctx, c, bfs_persistent<PARENTS>, &blocks);
  if (st != PRISM_OK)
    return st;
  unsigned int team = BFS_TEAM_BLOCKS < blocks ? BFS_TEAM_BLOCKS : blocks;
  void *params[] = {&g, &s, &team};
  cudaError_t err = cudaLaunchCooperativeKernel(
      reinterpret_cast<const void *>(bfs_persistent<PARENTS>), dim3(blocks),
      dim3(BFS_THREADS), params, 0, c->stream);
  if (err == cudaErrorCooperativeLaunchTooLarge ||
      err == cudaErrorNotSupported) {
    (void)cudaGetLastError();
    return PRISM_OK;
  }
  if (err != cudaSuccess)
    return prism__cuda_fail(ctx, err, "cudaLaunchCooperativeKernel(bfs)");
  *ran = true;
  return PRISM_OK;
}

/* Batches of bfs_step launches; after each, the result's phase goes to a
 * pinned flag behind an event, read while the next batch runs. */
template <bool PARENTS>
prism_status run_steps(prism_context *ctx, prism__cuda_ctx *c, Graph g,
                       Search s, size_t n, cudaEvent_t events[2]) {
  unsigned blocks = 0;
  prism_status st = wave(ctx, c, bfs_step<PARENTS>, &blocks);
  if (st != PRISM_OK)
    return st;
  // Each top-down or bottom-up step adds a level, and at most every other
  // step converts: far fewer than this many steps.
  const unsigned long long max_steps = 2ull * n + 8;
  volatile uint32_t *flags = reinterpret_cast<volatile uint32_t *>(
      static_cast<char *>(c->host_result) + FLAG_OFFSET);
  unsigned batch = BFS_FIRST_BATCH;
  unsigned long long k = 0;
  bool pending[2] = {false, false};
  for (unsigned j = 0;; ++j) {
    for (unsigned i = 0; i < batch; ++i, ++k) {
      bfs_step<PARENTS><<<blocks, BFS_THREADS, 0, c->stream>>>(g, s, k);
      if ((st = prism__cuda_check_launch(ctx, "bfs_step")) != PRISM_OK)
        return st;
    }
    PRISM_CUDA_TRY(ctx, cudaMemcpyAsync, const_cast<uint32_t *>(&flags[j & 1]),
                   &s.control->result.phase, sizeof(uint32_t),
                   cudaMemcpyDeviceToHost, c->stream);
    PRISM_CUDA_TRY(ctx, cudaEventRecord, events[j & 1], c->stream);
    pending[j & 1] = true;
    // A small batch waits for its own flag; a large one for the flag of
    // the batch before (if that one's has not been seen).
    const unsigned w = (batch < BFS_OVERLAP_BATCH ? j : j - 1) & 1;
    if (pending[w]) {
      pending[w] = false;
      PRISM_CUDA_TRY(ctx, cudaEventSynchronize, events[w]);
      if (flags[w] == PRISM_BFS_PHASE_DONE)
        return PRISM_OK;
    }
    if (k > max_steps)
      return prism__fail(ctx, PRISM_INTERNAL,
                         "CUDA backend: bfs did not finish in %llu steps", k);
    batch = batch * 2 > BFS_MAX_BATCH ? BFS_MAX_BATCH : batch * 2;
  }
}

template <bool PARENTS>
prism_status run_bfs(prism_context *ctx, prism__cuda_ctx *c,
                     const prism__bfs_args *a) {
  const Layout l = plan(a->n, a->m);
  if (l.item_capacity > UINT32_MAX)
    return prism__fail(ctx, PRISM_UNSUPPORTED,
                       "CUDA backend: bfs over %zu edges needs more than 2^32 "
                       "queue items",
                       a->m);
  void *scratch = NULL;
  prism_status st = prism__scratch(ctx, l.total, &scratch);
  if (st != PRISM_OK)
    return st;
  char *base = static_cast<char *>(scratch);
  Graph g;
  // The graph, levels and parents are read and written one element at a
  // time: element alignment (all a view has) is enough.
  g.offsets = mem_ptr<const uint64_t>(a->offsets);
  g.cols = mem_ptr<const uint32_t>(a->cols);
  g.in_offsets = mem_ptr<const uint64_t>(a->in_offsets);
  g.in_cols = mem_ptr<const uint32_t>(a->in_cols);
  g.m = a->m;
  g.n = uint32_t(a->n);
  g.words = uint32_t((a->n + WARP_THREADS - 1) / WARP_THREADS);
  g.directed = g.in_offsets != g.offsets; // by address: one address space
  Search s;
  s.control = reinterpret_cast<Control *>(base);
  for (int p = 0; p < 2; ++p) {
    s.visited[p] =
        reinterpret_cast<uint32_t *>(base + l.visited + p * l.visited_bytes);
    s.small[p] = reinterpret_cast<Entry *>(base + l.small + p * l.small_bytes);
    s.items[p] = reinterpret_cast<uint2 *>(base + l.items + p * l.items_bytes);
  }
  s.item_capacity = uint32_t(l.item_capacity);
  s.levels = mem_ptr<int32_t>(a->levels);
  s.parents = mem_ptr<int32_t>(a->parents); // NULL without parents
  // Options beyond float's range mean "always" / "never" all the same.
  s.heuristic.alpha = a->alpha > 3e38 ? INFINITY : float(a->alpha);
  s.heuristic.beta = a->beta > 3e38 ? INFINITY : float(a->beta);
  s.heuristic.n = g.n;

  // Levels and parents start at -1; the control block and first bitmap at
  // 0 (the second is written whole by the first bottom-up step).
  PRISM_CUDA_TRY(ctx, cudaMemsetAsync, s.levels, 0xFF, a->n * sizeof(int32_t),
                 c->stream);
  if (s.parents)
    PRISM_CUDA_TRY(ctx, cudaMemsetAsync, s.parents, 0xFF,
                   a->n * sizeof(int32_t), c->stream);
  PRISM_CUDA_TRY(ctx, cudaMemsetAsync, base, 0, sizeof(Control), c->stream);
  PRISM_CUDA_TRY(ctx, cudaMemsetAsync, s.visited[0], 0,
                 g.words * sizeof(uint32_t), c->stream);
  bfs_init<<<1, WARP_THREADS, 0, c->stream>>>(g, s, uint32_t(a->source));
  if ((st = prism__cuda_check_launch(ctx, "bfs_init")) != PRISM_OK)
    return st;

  bool ran = false;
  if (cooperative(c) &&
      (st = run_persistent<PARENTS>(ctx, c, g, s, &ran)) != PRISM_OK)
    return st;
  if (!ran) {
    cudaEvent_t events[2] = {NULL, NULL};
    for (int i = 0; i < 2 && st == PRISM_OK; ++i) {
      cudaError_t err =
          cudaEventCreateWithFlags(&events[i], cudaEventDisableTiming);
      if (err != cudaSuccess)
        st = prism__cuda_fail(ctx, err, "cudaEventCreateWithFlags");
    }
    if (st == PRISM_OK)
      st = run_steps<PARENTS>(ctx, c, g, s, a->n, events);
    for (int i = 0; i < 2; ++i)
      if (events[i])
        (void)cudaEventDestroy(events[i]);
    if (st != PRISM_OK)
      return st;
  }

  State result;
  st = prism__cuda_read_result(ctx, c, &s.control->result, sizeof result,
                               &result);
  if (st != PRISM_OK)
    return st;
  if (result.phase != PRISM_BFS_PHASE_DONE)
    return prism__fail(ctx, PRISM_INTERNAL, "CUDA backend: bfs did not end");
  a->result->levels = size_t(result.levels);
  a->result->reached = size_t(result.reached);
  a->result->reached_edges = size_t(result.reached_edges);
  return PRISM_OK;
}

} // namespace
} // namespace bfs
} // namespace prism_cuda

extern "C" prism_status prism__cuda_bfs(prism_context *ctx,
                                        const prism__bfs_args *args) {
  prism__cuda_ctx *c = NULL;
  prism_status st = prism__cuda_enter(ctx, &c);
  if (st != PRISM_OK)
    return st;
  return args->parents.native ? prism_cuda::bfs::run_bfs<true>(ctx, c, args)
                              : prism_cuda::bfs::run_bfs<false>(ctx, c, args);
}
