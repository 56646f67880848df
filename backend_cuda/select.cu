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
 * store (contiguous runs, coalesced).
 *
 * The kept count k lands as a uint64_t in count_out and, for the host, in
 * the context's result slot, written by the last tile.
 */
#include "count_status.cuh"
#include "cuda_internal.h"
#include "tile_io.cuh"

#include <cuda/std/type_traits>
#include <stdint.h>
#include <string.h>

namespace prism_cuda {
namespace {

/* Elements (and flags) as raw bits of their width where only equality
 * with 0 or moving is needed: fewer instantiations, same results. */
template <size_t BYTES>
using Bits = cuda::std::conditional_t<
    BYTES == 1, uint8_t,
    cuda::std::conditional_t<BYTES == 4, uint32_t, uint64_t>>;

/*
 * select_if's predicate as a truth table over how x compares with a:
 * outcome = (x < a) | (x == a) << 1 | (x > a) << 2, which is 0 only when
 * x or a is NaN; bit outcome of keep says whether that outcome keeps x.
 * IN_RANGE keeps outcomes 2 and 4 (a <= x) and also needs x <= b. This
 * gives IEEE-754 semantics: NaN fails everything but NOT_EQUAL, and -0.0
 * equals +0.0.
 */
template <class T> struct Predicate {
  T a, b;
  unsigned keep;
  bool range;

  __device__ __forceinline__ bool operator()(T x) const {
    const unsigned outcome =
        unsigned(x < a) | unsigned(x == a) << 1 | unsigned(x > a) << 2;
    return ((keep >> outcome) & 1u) && (!range || x <= b);
  }
};

template <class T> Predicate<T> make_predicate(const prism_predicate &p) {
  static const unsigned keep[] = {
      1u << 1,                     // LESS
      1u << 1 | 1u << 2,           // LESS_EQUAL
      1u << 4,                     // GREATER
      1u << 2 | 1u << 4,           // GREATER_EQUAL
      1u << 2,                     // EQUAL
      1u << 0 | 1u << 1 | 1u << 4, // NOT_EQUAL
      1u << 2 | 1u << 4,           // IN_RANGE: a <= x, and x <= b
  };
  Predicate<T> pred;
  memcpy(&pred.a, &p.a, sizeof(T)); // the union's member of type T
  memcpy(&pred.b, &p.b, sizeof(T));
  pred.keep = keep[p.compare];
  pred.range = p.compare == PRISM_IN_RANGE;
  return pred;
}

/* Shifts v up one lane (lane 0 gets its own back). */
template <class T> __device__ __forceinline__ T shfl_up_one(T v) {
  if constexpr (sizeof(T) == 1)
    return T(__shfl_up_sync(FULL_MASK, unsigned(v), 1));
  else
    return __shfl_up_sync(FULL_MASK, v, 1);
}

/*
 * A thread's ITEMS consecutive elements loaded directly ("blocked direct"),
 * in vectors of up to 16 bytes: for bytes (one 16-byte vector per thread,
 * so a warp reads 512 contiguous bytes) and for flags (the warp's vectors
 * cover a contiguous range; L1 merges the halves of each sector).
 */
template <class T, int ITEMS> struct ThreadTile {
  static constexpr int BYTES = ITEMS * int(sizeof(T));
  static constexpr int VEC_BYTES = BYTES % 16 == 0  ? 16
                                   : BYTES % 8 == 0 ? 8
                                   : BYTES % 4 == 0 ? 4
                                                    : int(sizeof(T));
  static constexpr int VEC_ITEMS = VEC_BYTES / int(sizeof(T));
  struct alignas(VEC_BYTES) Vec {
    T v[VEC_ITEMS];
  };

  /* Loads src[0, valid) into items; the rest get fill. vec: src is
   * VEC_BYTES-aligned and valid == ITEMS. */
  static __device__ __forceinline__ void load(const T *src, int valid, bool vec,
                                              T fill, T (&items)[ITEMS]) {
    if (vec) {
      const Vec *vsrc = reinterpret_cast<const Vec *>(src);
#pragma unroll
      for (int k = 0; k < ITEMS / VEC_ITEMS; ++k) {
        const Vec x = vsrc[k];
#pragma unroll
        for (int c = 0; c < VEC_ITEMS; ++c)
          items[k * VEC_ITEMS + c] = x.v[c];
      }
    } else {
#pragma unroll
      for (int j = 0; j < ITEMS; ++j)
        items[j] = j < valid ? src[j] : fill;
    }
  }
};

/* Shared memory of the element load: the warp transpose of tile_io.cuh for
 * 4- and 8-byte elements, none for bytes (ThreadTile). */
template <class T, int ITEMS, int WARPS, bool TRANSPOSE = (sizeof(T) >= 4)>
struct ElementLoad {
  using Warp = WarpTile<T, ITEMS>;
  struct Storage {
    T slice[WARPS][Warp::SMEM_ITEMS];
  };
};
template <class T, int ITEMS, int WARPS>
struct ElementLoad<T, ITEMS, WARPS, false> {
  struct Storage {};
};

/* The per-tile work both compaction kernels share. MODE: the selection
 * rule; T: the elements (raw bits for FLAGGED); F: the flags (raw bits;
 * unused unless FLAGGED); PARTITION: rejected elements are written too. */
template <prism__select_mode MODE, class T, class F, bool PARTITION>
struct TileSelect {
  using P = SelectPolicy<T>;
  static constexpr int ITEMS = P::ITEMS_PER_THREAD;
  static constexpr int THREADS = P::BLOCK_THREADS;
  static constexpr int WARPS = THREADS / WARP_THREADS;
  static constexpr bool TRANSPOSE = sizeof(T) >= 4;
  using Load = ElementLoad<T, ITEMS, WARPS>;
  using Count = Op<unsigned, PRISM_SUM>;

  struct Smem {
    union {
      typename Load::Storage load; // the element load's transpose
      T exchange[P::TILE_ITEMS];   // kept elements, then rejected ones
    } x;
    unsigned warp_slots[WARPS];     // block_exclusive_scan
    unsigned long long tile_prefix; // look-back result, to all warps
    unsigned tile;                  // ticket, to all warps
  };

  /*
   * Loads the thread's elements [base + t * ITEMS, + ITEMS) of the tile
   * (blocked) into items and returns the selection: bit j set when item j
   * is valid (< valid) and kept.
   */
  static __device__ __forceinline__ unsigned
  select(const T *in, const F *flags, size_t base, int valid, bool aligned,
         const Predicate<T> &pred, Smem &s, T (&items)[ITEMS]) {
    const int first = int(threadIdx.x) * ITEMS;
    const int thread_valid = min(max(valid - first, 0), ITEMS);
    if constexpr (TRANSPOSE) {
      using Warp = typename Load::Warp;
      const int warp = warp_id();
      const int warp_first = warp * Warp::WARP_ITEMS;
      const int warp_valid = min(max(valid - warp_first, 0), Warp::WARP_ITEMS);
      Warp::load(in + base + warp_first, warp_valid,
                 aligned && warp_valid == Warp::WARP_ITEMS, T(0),
                 s.x.load.slice[warp], items);
    } else {
      ThreadTile<T, ITEMS>::load(in + base + first, thread_valid,
                                 aligned && thread_valid == ITEMS, T(0), items);
    }

    unsigned keep = 0;
    if constexpr (MODE == PRISM__SELECT_FLAGGED) {
      F f[ITEMS];
      ThreadTile<F, ITEMS>::load(flags + base + first, thread_valid,
                                 aligned && thread_valid == ITEMS, F(0), f);
#pragma unroll
      for (int j = 0; j < ITEMS; ++j)
        keep |= unsigned(f[j] != F(0)) << j;
    } else if constexpr (MODE == PRISM__SELECT_IF) {
#pragma unroll
      for (int j = 0; j < ITEMS; ++j)
        keep |= unsigned(pred(items[j])) << j;
    } else {
      // The element before the thread's first: the previous lane's last,
      // or, for a warp's first lane, read again from global memory (once
      // per warp, from L1/L2). Element 0 has none and is always kept.
      T prev = shfl_up_one(items[ITEMS - 1]);
      if (lane_id() == 0 && base + first > 0 && thread_valid > 0)
        prev = in[base + first - 1];
      keep = base + first == 0 ? 1u : unsigned(items[0] != prev);
#pragma unroll
      for (int j = 1; j < ITEMS; ++j)
        keep |= unsigned(items[j] != items[j - 1]) << j;
    }
    // Items past valid are neither kept nor rejected.
    return thread_valid == ITEMS ? keep : keep & ((1u << thread_valid) - 1u);
  }

  /*
   * Packs the tile in shared memory: kept elements at [0, tile_kept) in
   * order, rejected ones (PARTITION) at [tile_kept, valid) in order. The
   * thread's kept items start at its exclusive prefix, its rejected ones
   * after the tile's kept count plus the rejected items of the threads
   * before it. The caller has synced since the load.
   */
  static __device__ __forceinline__ void exchange(const T (&items)[ITEMS],
                                                  unsigned keep, int valid,
                                                  unsigned thread_prefix,
                                                  unsigned tile_kept, Smem &s) {
    const int first = int(threadIdx.x) * ITEMS;
    unsigned kept = thread_prefix;
    unsigned rejected = tile_kept + (unsigned(first) - thread_prefix);
#pragma unroll
    for (int j = 0; j < ITEMS; ++j) {
      if ((keep >> j) & 1u)
        s.x.exchange[kept++] = items[j];
      else if (PARTITION && first + j < valid)
        s.x.exchange[rejected++] = items[j];
    }
  }

  /*
   * Writes the packed tile, striped (thread t moves slots t, t + THREADS,
   * ...): slot i < tile_kept goes to out[kept_before + i], a rejected slot
   * to out[rejected_at + i - tile_kept]. Two contiguous runs, so the warps'
   * stores coalesce. After a barrier that follows exchange.
   */
  static __device__ __forceinline__ void
  store(T *out, int valid, unsigned tile_kept, size_t kept_before,
        size_t rejected_at, const Smem &s) {
    const int limit = PARTITION ? valid : int(tile_kept);
#pragma unroll
    for (int k = 0; k < ITEMS; ++k) {
      const int i = k * THREADS + int(threadIdx.x);
      if (i < limit) {
        const size_t dst = unsigned(i) < tile_kept
                               ? kept_before + size_t(i)
                               : rejected_at + size_t(unsigned(i) - tile_kept);
        out[dst] = s.x.exchange[i];
      }
    }
  }
};

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
  const unsigned keep =
      S::select(in, flags, base, valid, aligned, pred, s, items);
  unsigned tile_kept;
  const unsigned thread_prefix =
      block_exclusive_scan<typename S::Count, P::BLOCK_THREADS>(
          unsigned(__popc(keep)), s.warp_slots, &tile_kept);

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
  S::exchange(items, keep, valid, thread_prefix, tile_kept, s);
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
    const unsigned keep =
        S::select(in, flags, base, valid, aligned, pred, s, items);
    unsigned tile_kept;
    const unsigned thread_prefix =
        block_exclusive_scan<typename S::Count, P::BLOCK_THREADS>(
            unsigned(__popc(keep)), s.warp_slots, &tile_kept);
    S::exchange(items, keep, valid, thread_prefix, tile_kept, s);
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
  const T *in = static_cast<const T *>(args->in);
  const F *flags = static_cast<const F *>(args->flags);
  T *out = static_cast<T *>(args->out);
  const size_t n = args->n;
  // Buffers from cudaMalloc always are; checked so that a future offset
  // view cannot turn a vector access into a fault.
  const bool aligned =
      (uintptr_t(in) | uintptr_t(out) | uintptr_t(flags)) % VECTOR_BYTES == 0;
  const Predicate<T> pred = make_predicate<T>(args->predicate);
  unsigned long long *count_dst =
      args->count_out ? static_cast<unsigned long long *>(args->count_out)
      : args->count   ? static_cast<unsigned long long *>(c->dev_result)
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
  PRISM_CUDA_TRY(ctx, cudaMemcpyAsync, c->host_result, count_dst,
                 sizeof(unsigned long long), cudaMemcpyDeviceToHost, c->stream);
  PRISM_CUDA_TRY(ctx, cudaStreamSynchronize, c->stream);
  unsigned long long k = 0;
  memcpy(&k, c->host_result, sizeof k);
  *args->count = size_t(k);
  return PRISM_OK;
}

template <class T> struct TypeTag { using type = T; };

/* From a run-time width (element or flag size) to its raw bits. */
template <class F>
prism_status dispatch_bits(prism_context *ctx, size_t bytes, F &&f) {
  switch (bytes) {
  case 1:
    return f(TypeTag<uint8_t>{});
  case 4:
    return f(TypeTag<uint32_t>{});
  case 8:
    return f(TypeTag<uint64_t>{});
  }
  return prism__fail(ctx, PRISM_INTERNAL, "CUDA backend: unsupported width %zu",
                     bytes);
}

/* From a run-time element type to the type itself. */
template <class F>
prism_status dispatch_element(prism_context *ctx, prism_type type, F &&f) {
  switch (type) {
  case PRISM_I32:
    return f(TypeTag<int32_t>{});
  case PRISM_U32:
    return f(TypeTag<uint32_t>{});
  case PRISM_F32:
    return f(TypeTag<float>{});
  case PRISM_I64:
    return f(TypeTag<int64_t>{});
  case PRISM_U64:
    return f(TypeTag<uint64_t>{});
  case PRISM_F64:
    return f(TypeTag<double>{});
  case PRISM_U8:
    return f(TypeTag<uint8_t>{});
  }
  return prism__fail(ctx, PRISM_INTERNAL, "CUDA backend: unknown type %d",
                     (int)type);
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
