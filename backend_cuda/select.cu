/* SPDX-License-Identifier: MIT */
/*
 * Stream compaction: select_flagged, select_if, partition_flagged,
 * partition_if and unique. One single pass with decoupled look-back over
 * the tiles' kept counts (count_status.cuh): each element is read once and
 * the kept ones written once (~n reads + k writes; partitions write all n).
 * Small inputs take one block and one launch.
 *
 * Phases (the OpenCL port, kernels_cl/select.cl, uses the same names):
 * select_count counts what a partition keeps (its rejected elements start
 * at that count); select_lookback compacts the tiles; select_single_block
 * replaces both for inputs of a few tiles. Within a tile: load, select (a
 * bit per element), block scan of the kept counts, look-back, exchange
 * (kept elements, then rejected ones, packed in order in shared memory),
 * store (contiguous runs, coalesced); select_tile.cuh holds the tile's
 * work.
 *
 * The kept count k lands as a uint64_t in count_out and, for the host, in
 * the context's result slot, written by the last tile.
 */
#include "count_status.cuh"
#include "cuda_internal.h"
#include "dispatch.cuh"
#include "select_tile.cuh"
#include "tile_io.cuh"

#include <cuda/std/type_traits>
#include <stdint.h>
#include <string.h>

namespace prism_cuda {
namespace {

/*
 * select_count (partitions only): how many elements are kept, into *kept,
 * which the host cleared. Ownership: a grid of at most one wave; thread g
 * owns the grid-strided 16-byte vectors g, g + stride, ... of the flags
 * (FLAGGED) or of the elements (IF), SELECT_COUNT_UNROLL of them in flight;
 * the tail (< one vector) and unaligned inputs go element by element.
 * Partials meet: thread counts -> block_reduce -> one 64-bit atomicAdd per
 * block. Traffic: the flags or the elements read once, coalesced.
 */
template <prism__select_mode MODE, class T, class F>
__global__ void __launch_bounds__(SELECT_COUNT_THREADS)
    select_count(const T *in, const F *flags, size_t n, Predicate<T> pred,
                 bool aligned, unsigned long long *kept) {
  using U = cuda::std::conditional_t<MODE == PRISM__SELECT_FLAGGED, F, T>;
  using V = Vec16<U>;
  using Sum = Op<unsigned long long, PRISM_SUM>;
  __shared__ unsigned long long warp_slots[SELECT_COUNT_THREADS / WARP_THREADS];
  const U *src;
  if constexpr (MODE == PRISM__SELECT_FLAGGED)
    src = flags;
  else
    src = in;
  auto kept_one = [&](U u) -> unsigned {
    if constexpr (MODE == PRISM__SELECT_FLAGGED)
      return u != U(0);
    else
      return pred(u);
  };

  const size_t stride = size_t(gridDim.x) * SELECT_COUNT_THREADS;
  const size_t gid = size_t(blockIdx.x) * SELECT_COUNT_THREADS + threadIdx.x;
  const size_t vectors = aligned ? n / V::N : 0;
  const V *vsrc = reinterpret_cast<const V *>(src);
  unsigned long long count = 0;
  size_t v = gid;
  for (; v + (SELECT_COUNT_UNROLL - 1) * stride < vectors;
       v += SELECT_COUNT_UNROLL * stride) {
    V x[SELECT_COUNT_UNROLL];
#pragma unroll
    for (int u = 0; u < SELECT_COUNT_UNROLL; ++u)
      x[u] = vsrc[v + u * stride];
#pragma unroll
    for (int u = 0; u < SELECT_COUNT_UNROLL; ++u)
#pragma unroll
      for (int c = 0; c < V::N; ++c)
        count += kept_one(x[u].v[c]);
  }
  for (; v < vectors; v += stride) {
    const V x = vsrc[v];
#pragma unroll
    for (int c = 0; c < V::N; ++c)
      count += kept_one(x.v[c]);
  }
  for (size_t i = vectors * V::N + gid; i < n; i += stride)
    count += kept_one(src[i]);

  const unsigned long long total =
      block_reduce<Sum, SELECT_COUNT_THREADS>(count, warp_slots);
  if (threadIdx.x == 0 && total != 0)
    atomicAdd(kept, total);
}

/*
 * select_lookback: one tile of TILE_ITEMS elements per block.
 * Ownership: the block owns the tile whose id it draws from the ticket
 * (atomicAdd, not blockIdx, so every tile it waits for belongs to a block
 * already running); thread t owns ITEMS_PER_THREAD consecutive elements
 * while selecting, and slots t, t + BLOCK_THREADS, ... of the packed tile
 * while storing.
 * Partials meet: selection bits -> thread counts (popc) -> block scan ->
 * tile count, published at once in the tile status; warp 0 looks back over
 * the predecessors for the tile's exclusive count (where its kept elements
 * start) and publishes the inclusive one. A partition's rejected elements
 * start at *kept (from select_count) plus the rejected elements before the
 * tile (base - kept before it). The last tile writes the total to
 * count_dst.
 * Traffic: each element (and flag) read once (128-bit loads, coalesced);
 * kept (and rejected) elements written once, in contiguous runs; one
 * status word per tile written, a few read (mostly from L2).
 */
template <prism__select_mode MODE, class T, class F, bool PARTITION>
__global__ void
__launch_bounds__(SelectPolicy<T>::BLOCK_THREADS,
                  min_blocks_for_arch(SelectPolicy<T>::MIN_BLOCKS_PER_SM,
                                      SelectPolicy<T>::BLOCK_THREADS))
    select_lookback(const T *in, const F *flags, T *out, size_t n,
                    Predicate<T> pred, bool aligned, unsigned long long *status,
                    unsigned *ticket, const unsigned long long *kept,
                    unsigned long long *count_dst, unsigned tiles) {
  using S = TileSelect<MODE, T, F, PARTITION>;
  using P = typename S::P;
  __shared__ typename S::Smem s;

  const unsigned tile = draw_tile(ticket, s.tile);
  const size_t base = size_t(tile) * P::TILE_ITEMS;
  const int valid = int(min(size_t(P::TILE_ITEMS), n - base));

  T items[S::ITEMS];
  const auto r = S::rank(in, flags, base, valid, aligned, pred, s, items);
  const unsigned tile_kept = r.tile_kept;

  if (warp_id() == 0) {
    // Pauses help only when many tiles contend (see scan_lookback).
    const bool pause = tiles >= P::LOOKBACK_PAUSE_MIN_TILES;
    const unsigned long long before = lookback<CountLookback>(
        CountStatus{status}, tile, tile_kept, true,
        pause ? P::LOOKBACK_FIRST_NS : 0, pause ? P::LOOKBACK_SPIN_NS : 0);
    if (threadIdx.x == 0)
      s.tile_prefix = before;
  }
  // The packing needs no look-back result: the other warps do it while
  // warp 0 looks back.
  S::exchange(items, r.keep, valid, r.prefix, tile_kept, s);
  __syncthreads();

  const size_t kept_before = s.tile_prefix;
  if (threadIdx.x == 0 && tile == tiles - 1 && count_dst)
    *count_dst = kept_before + tile_kept;
  const size_t rejected_at = PARTITION ? *kept + (base - kept_before) : 0;
  S::store(out, valid, tile_kept, kept_before, rejected_at, s);
}

/*
 * select_single_block: the whole input, of at most SINGLE_BLOCK_MAX_TILES
 * tiles. Ownership: the one block walks the tiles in order, each as in
 * select_lookback. Partials meet: a running kept count from tile to tile,
 * kept in registers (every thread has the same one); a partition first
 * walks the tiles once to count, so its rejected elements know where to
 * start. No tile status, no init, no atomics: one launch. Writes the total
 * to count_dst. Traffic: elements read once (twice for a partition) and
 * written once; latency-bound by design.
 */
template <prism__select_mode MODE, class T, class F, bool PARTITION>
__global__ void __launch_bounds__(SelectPolicy<T>::BLOCK_THREADS)
    select_single_block(const T *in, const F *flags, T *out, size_t n,
                        Predicate<T> pred, bool aligned,
                        unsigned long long *count_dst) {
  using S = TileSelect<MODE, T, F, PARTITION>;
  using P = typename S::P;
  __shared__ typename S::Smem s;

  size_t kept_total = 0;
  if constexpr (PARTITION) {
    for (size_t base = 0; base < n; base += P::TILE_ITEMS) {
      const int valid = int(min(size_t(P::TILE_ITEMS), n - base));
      T items[S::ITEMS];
      const unsigned keep =
          S::select(in, flags, base, valid, aligned, pred, s, items);
      kept_total += block_reduce<typename S::Count, P::BLOCK_THREADS>(
          unsigned(__popc(keep)), s.warp_slots);
      __syncthreads(); // the next tile reuses the load's memory and slots
    }
  }

  size_t kept_before = 0;
  for (size_t base = 0; base < n; base += P::TILE_ITEMS) {
    const int valid = int(min(size_t(P::TILE_ITEMS), n - base));
    T items[S::ITEMS];
    const auto r = S::rank(in, flags, base, valid, aligned, pred, s, items);
    const unsigned tile_kept = r.tile_kept;
    S::exchange(items, r.keep, valid, r.prefix, tile_kept, s);
    __syncthreads();
    S::store(out, valid, tile_kept, kept_before,
             kept_total + (base - kept_before), s);
    kept_before += tile_kept;
    __syncthreads(); // the next tile reuses the packed tile and slots
  }
  if (threadIdx.x == 0 && count_dst)
    *count_dst = kept_before;
}

/* Where the scratch words of a look-back compaction lie (64-bit words):
 * the ticket and the partition's kept count share the first aligned slot,
 * the tile status follows in its own; one memset clears them all. */
constexpr size_t SCRATCH_TICKET = 0;
constexpr size_t SCRATCH_KEPT = 1;
constexpr size_t SCRATCH_STATUS =
    PRISM__CUDA_SCRATCH_ALIGN / sizeof(unsigned long long);

template <prism__select_mode MODE, class T, class F, bool PARTITION>
prism_status run_select(prism_context *ctx, prism__cuda_ctx *c,
                        const prism__select_args *args) {
  using P = SelectPolicy<T>;
  const T *in = mem_ptr<const T>(args->in);
  const F *flags = mem_ptr<const F>(args->flags); // NULL unless FLAGGED
  T *out = mem_ptr<T>(args->out);
  const size_t n = args->n;
  // The vector loads (select_count's Vec16 of flags or elements; a tile's
  // WarpTile of elements and ThreadTile of bytes and flags, at most 16
  // bytes each) read in and flags only, and need each on a 16-byte
  // boundary: whole buffers are, a view need only be element-aligned.
  // Tiles, warp slices and thread runs start a whole number of vectors
  // after it, so this one check covers them all; otherwise every load is
  // element by element. out is only stored element by element.
  const bool aligned = (uintptr_t(in) | uintptr_t(flags)) % VECTOR_BYTES == 0;
  const Predicate<T> pred = make_predicate<T>(args->predicate);
  unsigned long long *count_dst =
      args->count_out.native ? mem_ptr<unsigned long long>(args->count_out)
      : args->count          ? static_cast<unsigned long long *>(c->dev_result)
                             : NULL;
  const size_t tiles = (n + P::TILE_ITEMS - 1) / P::TILE_ITEMS;
  prism_status st;

  if (tiles <= P::SINGLE_BLOCK_MAX_TILES) {
    select_single_block<MODE, T, F, PARTITION>
        <<<1, P::BLOCK_THREADS, 0, c->stream>>>(in, flags, out, n, pred,
                                                aligned, count_dst);
    st = prism__cuda_check_launch(ctx, "select_single_block");
  } else {
    if (tiles > size_t(INT32_MAX))
      return prism__fail(ctx, PRISM_UNSUPPORTED,
                         "compaction of %zu elements: more than 2^31 tiles", n);
    const size_t words = SCRATCH_STATUS + tiles;
    void *scratch = NULL;
    st = prism__scratch(ctx, words * sizeof(unsigned long long), &scratch);
    if (st != PRISM_OK)
      return st;
    unsigned long long *base = static_cast<unsigned long long *>(scratch);
    unsigned *ticket = reinterpret_cast<unsigned *>(base + SCRATCH_TICKET);
    unsigned long long *kept = base + SCRATCH_KEPT;
    unsigned long long *status = base + SCRATCH_STATUS;
    PRISM_CUDA_TRY(ctx, cudaMemsetAsync, base, 0,
                   words * sizeof(unsigned long long), c->stream);
    if (PARTITION) {
      // One wave at most, fewer when n gives each thread less than a trip.
      constexpr size_t TRIP =
          size_t(SELECT_COUNT_THREADS) * SELECT_COUNT_UNROLL * VECTOR_BYTES /
          sizeof(cuda::std::conditional_t<MODE == PRISM__SELECT_FLAGGED, F, T>);
      size_t blocks = (n + TRIP - 1) / TRIP;
      const size_t wave = size_t(c->sm_count) * SELECT_COUNT_BLOCKS_PER_SM;
      if (blocks > wave)
        blocks = wave;
      select_count<MODE, T, F>
          <<<unsigned(blocks), SELECT_COUNT_THREADS, 0, c->stream>>>(
              in, flags, n, pred, aligned, kept);
      if ((st = prism__cuda_check_launch(ctx, "select_count")) != PRISM_OK)
        return st;
    }
    select_lookback<MODE, T, F, PARTITION>
        <<<unsigned(tiles), P::BLOCK_THREADS, 0, c->stream>>>(
            in, flags, out, n, pred, aligned, status, ticket, kept, count_dst,
            unsigned(tiles));
    st = prism__cuda_check_launch(ctx, "select_lookback");
  }
  if (st != PRISM_OK || !args->count)
    return st;
  unsigned long long k = 0;
  st = prism__cuda_read_result(ctx, c, count_dst, sizeof k, &k);
  if (st != PRISM_OK)
    return st;
  *args->count = size_t(k);
  return PRISM_OK;
}

template <prism__select_mode MODE, class T, class F>
prism_status run_select_mode(prism_context *ctx, prism__cuda_ctx *c,
                             const prism__select_args *args) {
  if constexpr (MODE == PRISM__SELECT_UNIQUE)
    return run_select<MODE, T, F, false>(ctx, c, args);
  else
    return args->partition ? run_select<MODE, T, F, true>(ctx, c, args)
                           : run_select<MODE, T, F, false>(ctx, c, args);
}

} // namespace
} // namespace prism_cuda

extern "C" prism_status prism__cuda_select(prism_context *ctx,
                                           const prism__select_args *args) {
  using namespace prism_cuda;
  prism__cuda_ctx *c = NULL;
  prism_status st = prism__cuda_enter(ctx, &c);
  if (st != PRISM_OK)
    return st;
  if (args->n == 0) // core answers n = 0 itself; kept for safety
    return PRISM_OK;
  switch (args->mode) {
  case PRISM__SELECT_FLAGGED:
    // Elements only move and flags only meet 0: both as raw bits.
    return dispatch_bits(ctx, prism_type_size(args->type), [&](auto element) {
      return dispatch_bits(
          ctx, prism_type_size(args->flag_type), [&](auto flag) {
            using T = typename decltype(element)::type;
            using F = typename decltype(flag)::type;
            return run_select_mode<PRISM__SELECT_FLAGGED, T, F>(ctx, c, args);
          });
    });
  case PRISM__SELECT_IF:
    return dispatch_element(ctx, args->type, [&](auto element) {
      using T = typename decltype(element)::type;
      return run_select_mode<PRISM__SELECT_IF, T, uint8_t>(ctx, c, args);
    });
  case PRISM__SELECT_UNIQUE:
    // Integers compare equal exactly when their bits do.
    return dispatch_element(ctx, args->type, [&](auto element) {
      using E = typename decltype(element)::type;
      using T = cuda::std::conditional_t<cuda::std::is_floating_point_v<E>, E,
                                         Bits<sizeof(E)>>;
      return run_select_mode<PRISM__SELECT_UNIQUE, T, uint8_t>(ctx, c, args);
    });
  }
  return prism__fail(ctx, PRISM_INTERNAL,
                     "CUDA backend: unknown select mode %d", (int)args->mode);
}
