/* SPDX-License-Identifier: MIT */
/*
 * Inclusive and exclusive scan: a single pass with decoupled look-back
 * (Merrill & Garland 2016), which reads and writes each element once (~2n
 * element moves, against ~3n for reduce-then-scan). Small inputs take one
 * block and one launch.
 *
 * Phases (the OpenCL port uses the same names): scan_init clears the tile
 * status and the ticket; scan_lookback scans the tiles; scan_single_block
 * replaces both for inputs of a few tiles.
 */
#include "cuda_internal.h"
#include "dispatch.cuh"
#include "tile_io.cuh"
#include "tile_status.cuh"

#include <stdint.h>

namespace prism_cuda {
namespace {

/* The per-tile work both scan kernels share. */
template <class T, prism_op OP> struct TileScan {
  using Op = prism_cuda::Op<T, OP>;
  using P = ScanPolicy<T>;
  static constexpr int ITEMS = P::ITEMS_PER_THREAD;
  static constexpr int WARPS = P::BLOCK_THREADS / WARP_THREADS;
  using Warp = WarpTile<T, ITEMS>;

  struct Smem {
    T transpose[WARPS][Warp::SMEM_ITEMS]; // one slice per warp
    T warp_slots[WARPS];                  // block_exclusive_scan
    T tile_prefix;                        // look-back result, to all warps
    unsigned tile;                        // ticket, to all warps
  };

  /* Loads elements [base, base + valid) of in into items (blocked); items
   * past valid hold the identity, which leaves every total unchanged. */
  static __device__ __forceinline__ void load(const T *in, size_t base,
                                              int valid, bool aligned, Smem &s,
                                              T (&items)[ITEMS]) {
    const int warp = warp_id();
    const int first = warp * Warp::WARP_ITEMS;
    const int warp_valid = min(max(valid - first, 0), Warp::WARP_ITEMS);
    Warp::load(in + base + first, warp_valid,
               aligned && warp_valid == Warp::WARP_ITEMS, Op::identity(),
               s.transpose[warp], items);
  }

  static __device__ __forceinline__ void store(T *out, size_t base, int valid,
                                               bool aligned, Smem &s,
                                               const T (&items)[ITEMS]) {
    const int warp = warp_id();
    const int first = warp * Warp::WARP_ITEMS;
    const int warp_valid = min(max(valid - first, 0), Warp::WARP_ITEMS);
    Warp::store(out + base + first, warp_valid,
                aligned && warp_valid == Warp::WARP_ITEMS, s.transpose[warp],
                items);
  }

  static __device__ __forceinline__ T reduce_items(const T (&items)[ITEMS]) {
    T total = items[0];
#pragma unroll
    for (int j = 1; j < ITEMS; ++j)
      total = Op::apply(total, items[j]);
    return total;
  }

  /* Replaces items by their scan, starting from the thread's exclusive
   * prefix. */
  static __device__ __forceinline__ void scan_items(T (&items)[ITEMS], T prefix,
                                                    bool exclusive) {
    T running = prefix;
#pragma unroll
    for (int j = 0; j < ITEMS; ++j) {
      T next = Op::apply(running, items[j]);
      items[j] = exclusive ? running : next;
      running = next;
    }
  }
};

/*
 * scan_init: clears the tile status words and the ticket (one contiguous
 * range of 64-bit words). One thread per word.
 */
__global__ void scan_init(unsigned long long *words, size_t count) {
  const size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < count)
    words[i] = 0;
}

/*
 * scan_lookback: one tile of TILE_ITEMS elements per block.
 * Ownership: the block owns the tile whose id it draws from the ticket
 * (atomicAdd, not blockIdx, so that every tile it waits for belongs to a
 * block already running: forward progress without co-scheduling
 * guarantees); each thread owns ITEMS_PER_THREAD consecutive elements.
 * Partials meet: items -> thread total (serial) -> block scan (shuffles,
 * one shared slot per warp) -> tile aggregate published in the tile status;
 * warp 0 looks back over the predecessors to get the tile's exclusive
 * prefix and publishes the inclusive one.
 * Traffic: each element is read once and written once with 128-bit
 * coalesced accesses; per tile, a few words of tile status.
 */
template <class T, prism_op OP>
__global__ void
__launch_bounds__(ScanPolicy<T>::BLOCK_THREADS,
                  min_blocks_for_arch(ScanPolicy<T>::MIN_BLOCKS_PER_SM,
                                      ScanPolicy<T>::BLOCK_THREADS))
    scan_lookback(const T *in, T *out, size_t n, bool exclusive, bool aligned,
                  TileStatus<T> status, unsigned *ticket) {
  using S = TileScan<T, OP>;
  using P = typename S::P;
  __shared__ typename S::Smem s;

  const unsigned tile = draw_tile(ticket, s.tile);
  const size_t base = size_t(tile) * P::TILE_ITEMS;
  const int valid = int(min(size_t(P::TILE_ITEMS), n - base));

  T items[S::ITEMS];
  S::load(in, base, valid, aligned, s, items);
  T aggregate;
  T prefix = block_exclusive_scan<typename S::Op, P::BLOCK_THREADS>(
      S::reduce_items(items), s.warp_slots, &aggregate);

  if (warp_id() == 0) {
    // Pauses help only when many tiles contend; on small grids they are
    // pure latency.
    const bool pause = gridDim.x >= P::LOOKBACK_PAUSE_MIN_TILES;
    T tile_prefix = lookback<ScanLookback<typename S::Op, T>>(
        status, tile, aggregate, true, pause ? P::LOOKBACK_FIRST_NS : 0,
        pause ? P::LOOKBACK_SPIN_NS : 0);
    if (threadIdx.x == 0)
      s.tile_prefix = tile_prefix;
  }
  __syncthreads();
  if (tile != 0)
    prefix = S::Op::apply(s.tile_prefix, prefix);

  S::scan_items(items, prefix, exclusive);
  S::store(out, base, valid, aligned, s, items);
}

/*
 * scan_single_block: the whole input, of at most SINGLE_BLOCK_MAX_TILES
 * tiles. Ownership: the one block walks the tiles in order; within a tile,
 * thread t owns ITEMS_PER_THREAD consecutive elements, as in scan_lookback.
 * Partials meet: the block scan of each tile, then a running carry from
 * tile to tile, kept in registers (every thread computes the same one). No
 * tile status, no init, no atomics, so a small scan costs one launch.
 * Traffic: each element read once and written once; latency-bound by
 * design.
 */
template <class T, prism_op OP>
__global__ void __launch_bounds__(ScanPolicy<T>::BLOCK_THREADS)
    scan_single_block(const T *in, T *out, size_t n, bool exclusive,
                      bool aligned) {
  using S = TileScan<T, OP>;
  using P = typename S::P;
  __shared__ typename S::Smem s;

  T carry = S::Op::identity();
  for (size_t base = 0; base < n; base += P::TILE_ITEMS) {
    const int valid = int(min(size_t(P::TILE_ITEMS), n - base));
    T items[S::ITEMS];
    S::load(in, base, valid, aligned, s, items);
    T aggregate;
    T prefix = block_exclusive_scan<typename S::Op, P::BLOCK_THREADS>(
        S::reduce_items(items), s.warp_slots, &aggregate);
    if (base != 0) {
      prefix = S::Op::apply(carry, prefix);
      aggregate = S::Op::apply(carry, aggregate);
    }
    carry = aggregate;
    S::scan_items(items, prefix, exclusive);
    S::store(out, base, valid, aligned, s, items);
    __syncthreads(); // the next tile's block scan rewrites warp_slots
  }
}

template <class T, prism_op OP>
prism_status run_scan(prism_context *ctx, prism__cuda_ctx *c,
                      const prism__scan_args *args) {
  using P = ScanPolicy<T>;
  const T *in = mem_ptr<const T>(args->in);
  T *out = mem_ptr<T>(args->out);
  const size_t n = args->n;
  const bool exclusive = args->kind == PRISM_EXCLUSIVE;
  // WarpTile's 128-bit loads of in and stores to out need both on a 16-byte
  // boundary (whole buffers are; a view need only be element-aligned).
  // Every warp's slice starts a whole number of vectors after it (tiles
  // and slices are multiples of 16 bytes), so this one check covers them
  // all; otherwise every access is element by element.
  const bool aligned = (uintptr_t(in) | uintptr_t(out)) % VECTOR_BYTES == 0;
  const size_t num_tiles = (n + P::TILE_ITEMS - 1) / P::TILE_ITEMS;

  if (num_tiles <= P::SINGLE_BLOCK_MAX_TILES) {
    scan_single_block<T, OP>
        <<<1, P::BLOCK_THREADS, 0, c->stream>>>(in, out, n, exclusive, aligned);
    return prism__cuda_check_launch(ctx, "scan_single_block");
  }
  if (num_tiles > size_t(INT32_MAX))
    return prism__fail(ctx, PRISM_UNSUPPORTED,
                       "scan of %zu elements: more than 2^31 tiles", n);

  // One scratch region of 64-bit words: [aggregates][prefixes][ticket],
  // cleared by one scan_init.
  using Status = TileStatus<T>;
  const size_t status_words = num_tiles * Status::STATUS_WORDS;
  const size_t words = 2 * status_words + 1;
  void *scratch = NULL;
  prism_status st =
      prism__scratch(ctx, words * sizeof(unsigned long long), &scratch);
  if (st != PRISM_OK)
    return st;
  Status status;
  status.aggregate = static_cast<unsigned long long *>(scratch);
  status.prefix = status.aggregate + status_words;
  unsigned *ticket = reinterpret_cast<unsigned *>(status.prefix + status_words);

  const size_t init_blocks =
      (words + SCAN_INIT_THREADS - 1) / SCAN_INIT_THREADS;
  scan_init<<<unsigned(init_blocks), SCAN_INIT_THREADS, 0, c->stream>>>(
      status.aggregate, words);
  st = prism__cuda_check_launch(ctx, "scan_init");
  if (st != PRISM_OK)
    return st;
  scan_lookback<T, OP><<<unsigned(num_tiles), P::BLOCK_THREADS, 0, c->stream>>>(
      in, out, n, exclusive, aligned, status, ticket);
  return prism__cuda_check_launch(ctx, "scan_lookback");
}

} // namespace
} // namespace prism_cuda

extern "C" prism_status prism__cuda_scan(prism_context *ctx,
                                         const prism__scan_args *args) {
  prism__cuda_ctx *c = NULL;
  prism_status st = prism__cuda_enter(ctx, &c);
  if (st != PRISM_OK)
    return st;
  if (args->n == 0)
    return PRISM_OK;
  return prism_cuda::dispatch_type_op(ctx, args->type, args->op, [&](auto tag) {
    using Tag = decltype(tag);
    return prism_cuda::run_scan<typename Tag::type, Tag::op>(ctx, c, args);
  });
}
