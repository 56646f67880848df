/* SPDX-License-Identifier: MIT */
/*
 * Stable LSD radix sort of keys, or of (key, value) pairs: Onesweep
 * (Adinets & Merrill 2022). One upsweep counts the digits of every pass at
 * once; then each pass moves every key (and value) once, its tiles learning
 * where their digits go through a per-digit decoupled look-back, so a pass
 * reads and writes each element once (~2n moves per pass, plus n reads for
 * all the histograms together). Small inputs take one block and one launch.
 *
 * Phases (the OpenCL port uses the same names): sort_histogram counts;
 * sort_offsets scans the counts into global digit starts; sort_onesweep
 * runs one pass (in portions of at most PORTION_TILES tiles);
 * sort_single_block replaces them all for inputs of one tile.
 *
 * Passes ping-pong between the output and a scratch copy, arranged so the
 * last pass writes the output. Pass p writes the output when the passes
 * after it are even in number, else the scratch copy; a sort in place with
 * an odd number of passes first copies its input to the scratch copy, so
 * that pass 0 never writes what it reads.
 */
#include "cuda_internal.h"
#include "dispatch.cuh"
#include "sort_block.cuh"
#include "sort_keys.cuh"
#include "sort_rank.cuh"
#include "sort_status.cuh"

#include <cuda/std/type_traits>
#include <stdint.h>

namespace prism_cuda {
namespace {

/*
 * sort_histogram: the digit counts of every pass, in one read of the keys.
 * Ownership: a fixed grid; each block owns a grid-strided share of the keys
 * and its shared histograms ([part][pass][digit], 32-bit: the host sizes
 * the grid so no block counts 2^32 keys).
 * Partials meet: shared atomics within the block, then one 64-bit global
 * atomic per non-zero (pass, digit) and block into hist, which the host
 * cleared.
 * Traffic: each key read once (coalesced); passes x digits atomics per
 * block.
 */
template <class KT>
__global__ void __launch_bounds__(SORT_HIST_THREADS)
    sort_histogram(const typename KT::Bits *keys, size_t n, unsigned begin_bit,
                   unsigned end_bit, typename KT::Bits flip,
                   unsigned long long *hist) {
  using K = typename KT::Bits;
  constexpr int MAX_PASSES = (int(sizeof(K)) * 8 + RADIX_BITS - 1) / RADIX_BITS;
  constexpr int COUNTERS = SORT_HIST_PARTS * MAX_PASSES * RADIX_DIGITS;
  constexpr size_t TRIP = size_t(SORT_HIST_THREADS) * SORT_HIST_ITEMS;
  __shared__ unsigned counts[SORT_HIST_PARTS][MAX_PASSES][RADIX_DIGITS];

  for (int i = threadIdx.x; i < COUNTERS; i += SORT_HIST_THREADS)
    (&counts[0][0][0])[i] = 0;
  __syncthreads();

  const unsigned passes = sort_passes(begin_bit, end_bit);
  unsigned(*mine)[RADIX_DIGITS] = counts[warp_id() % SORT_HIST_PARTS];
  for (size_t base = size_t(blockIdx.x) * TRIP; base < n;
       base += size_t(gridDim.x) * TRIP) {
    K k[SORT_HIST_ITEMS];
#pragma unroll
    for (int j = 0; j < SORT_HIST_ITEMS; ++j) {
      const size_t i = base + size_t(j) * SORT_HIST_THREADS + threadIdx.x;
      k[j] = i < n ? keys[i] : K(0);
    }
#pragma unroll
    for (int j = 0; j < SORT_HIST_ITEMS; ++j) {
      if (base + size_t(j) * SORT_HIST_THREADS + threadIdx.x >= n)
        break;
#pragma unroll
      for (int p = 0; p < MAX_PASSES; ++p)
        if (unsigned(p) < passes)
          atomicAdd(&mine[p][pass_digit<KT>(flip, begin_bit, end_bit,
                                            unsigned(p))(k[j])],
                    1u);
    }
  }
  __syncthreads();

  for (unsigned i = threadIdx.x; i < passes * RADIX_DIGITS;
       i += SORT_HIST_THREADS) {
    unsigned long long sum = 0;
#pragma unroll
    for (int part = 0; part < SORT_HIST_PARTS; ++part)
      sum += counts[part][i / RADIX_DIGITS][i % RADIX_DIGITS];
    if (sum)
      atomicAdd(&hist[i], sum);
  }
}

/*
 * sort_offsets: in place, each pass's digit counts become the exclusive
 * scan of them: where each digit starts in the output.
 * Ownership: one block; thread d owns digit d of every pass.
 * Partials meet: a block scan per pass (shuffles, one shared slot a warp).
 * Traffic: passes x digits 64-bit words, read and written once.
 */
__global__ void __launch_bounds__(RADIX_DIGITS)
    sort_offsets(unsigned long long *bins, unsigned passes) {
  __shared__ unsigned long long warp_slots[RADIX_DIGITS / WARP_THREADS];
  for (unsigned p = 0; p < passes; ++p) {
    unsigned long long *row = bins + size_t(p) * RADIX_DIGITS;
    unsigned long long total;
    const unsigned long long start =
        block_exclusive_scan<Op<unsigned long long, PRISM_SUM>, RADIX_DIGITS>(
            row[threadIdx.x], warp_slots, &total);
    row[threadIdx.x] = start;
    __syncthreads(); // the next pass's scan rewrites warp_slots
  }
}

/* Shared memory and types of sort_onesweep. The counters of the ranking
 * and the tile staged for the scatter are never live together, so they
 * share memory. */
template <class KT, class V> struct Onesweep {
  using K = typename KT::Bits;
  using P = SortPolicy<K, V>;
  using Rank = BlockRadixRank<P::BLOCK_THREADS, P::ITEMS>;
  static constexpr int ITEMS = P::ITEMS;
  static constexpr bool PAIRS = HAS_VALUES<V>;

  struct Smem {
    union {
      typename Rank::Counters counters;
      K keys[P::TILE_ITEMS];
      V values[PAIRS ? P::TILE_ITEMS : 1];
    } x;
    // Output position of the tile's key i of digit d: digit_base[d] + i.
    unsigned long long digit_base[RADIX_DIGITS];
    unsigned warp_slots[Rank::WARPS];
    unsigned tile;
  };
};

/*
 * sort_onesweep: one pass, one tile of TILE_ITEMS keys per block.
 * Ownership: the block owns the tile whose id it draws from the ticket
 * (atomicAdd, not blockIdx, so every tile it waits for is held by a block
 * already running); thread t owns the warp-striped items of sort_rank.cuh
 * while ranking, and tile slots t, t + BLOCK_THREADS, ... while scattering;
 * thread d < RADIX_DIGITS owns digit d's status word and look-back.
 * Partials meet: per-warp digit counters in shared memory -> per-digit tile
 * counts, published at once as AGGREGATE (tile 0: PREFIX, from the digit's
 * global start in bins) -> each digit thread looks back over the preceding
 * tiles until a PREFIX and publishes its own. The last tile of a launch
 * stores its inclusive prefixes into bins: the next portion's starts (only
 * tile 0 reads bins, and its reads precede every prefix the last tile can
 * have seen).
 * Traffic: each key (and value) read once, coalesced, and written once:
 * staged through shared memory in digit order, so each digit's run of the
 * tile is one contiguous write. Per tile 2 x RADIX_DIGITS status words
 * written and a few rows read (mostly from L2).
 */
template <class KT, class V>
__global__ void
__launch_bounds__(Onesweep<KT, V>::P::BLOCK_THREADS,
                  min_blocks_for_arch(Onesweep<KT, V>::P::MIN_BLOCKS_PER_SM,
                                      Onesweep<KT, V>::P::BLOCK_THREADS))
    sort_onesweep(const typename KT::Bits *keys_in, typename KT::Bits *keys_out,
                  const V *values_in, V *values_out, size_t n, size_t first_key,
                  unsigned long long *bins, unsigned long long *status,
                  unsigned *ticket, DigitOf<KT> digit_of) {
  using S = Onesweep<KT, V>;
  using K = typename S::K;
  using P = typename S::P;
  using Rank = typename S::Rank;
  constexpr int ITEMS = S::ITEMS;
  __shared__ typename S::Smem s;

  const unsigned tile = draw_tile(ticket, s.tile);
  const size_t base = first_key + size_t(tile) * P::TILE_ITEMS;
  const int valid = int(min(size_t(P::TILE_ITEMS), n - base));

  // Item j of this thread sits j * WARP_THREADS after its item 0.
  const size_t first = base + size_t(Rank::position(0));
  K keys[ITEMS];
#pragma unroll
  for (int j = 0; j < ITEMS; ++j)
    keys[j] =
        Rank::position(j) < valid ? keys_in[first + j * WARP_THREADS] : K(0);
  unsigned ranks[ITEMS];
  Rank::rank_in_warp(keys, valid, digit_of, s.x.counters, ranks);
  const unsigned count = Rank::digit_counts(s.x.counters);

  // Publish the counts as early as they are known: successors wait on them.
  const int digit = int(threadIdx.x);
  const bool digit_thread = digit < RADIX_DIGITS;
  unsigned long long start = 0; // where this tile's keys of digit go
  if (digit_thread) {
    if (tile == 0) {
      start = bins[digit];
      publish_digit(status, 0, digit, PRISM_LB_PREFIX, start + count);
    } else {
      publish_digit(status, tile, digit, PRISM_LB_AGGREGATE, count);
    }
  }
  const unsigned offset =
      Rank::digit_offsets(count, s.x.counters, s.warp_slots);
  Rank::tile_ranks(valid, s.x.counters, ranks);

  // The values' loads are issued before the look-back, which hides them.
  V values[S::PAIRS ? ITEMS : 1];
  if constexpr (S::PAIRS) {
#pragma unroll
    for (int j = 0; j < ITEMS; ++j)
      values[j] = Rank::position(j) < valid
                      ? values_in[first + j * WARP_THREADS]
                      : V(0);
  }

  if (digit_thread) {
    if (tile != 0) {
      start = lookback_digit<P::LOOKBACK_WINDOW>(status, tile, digit,
                                                 P::LOOKBACK_NS);
      publish_digit(status, tile, digit, PRISM_LB_PREFIX, start + count);
    }
    if (tile == gridDim.x - 1)
      bins[digit] = start + count;
    s.digit_base[digit] = start - offset; // wraps; + i >= offset undoes it
  }
  __syncthreads(); // ranks are read from the counters: now reuse them

#pragma unroll
  for (int j = 0; j < ITEMS; ++j)
    if (Rank::position(j) < valid)
      s.x.keys[ranks[j]] = keys[j];
  __syncthreads();

  unsigned digits[S::PAIRS ? ITEMS : 1];
#pragma unroll
  for (int k = 0; k < ITEMS; ++k) {
    const int i = k * P::BLOCK_THREADS + int(threadIdx.x);
    if (i < valid) {
      const K key = s.x.keys[i];
      const unsigned d = digit_of(key);
      keys_out[s.digit_base[d] + i] = key;
      if constexpr (S::PAIRS)
        digits[k] = d;
    }
  }

  if constexpr (S::PAIRS) {
    __syncthreads(); // the keys are read: the values take their place
#pragma unroll
    for (int j = 0; j < ITEMS; ++j)
      if (Rank::position(j) < valid)
        s.x.values[ranks[j]] = values[j];
    __syncthreads();
#pragma unroll
    for (int k = 0; k < ITEMS; ++k) {
      const int i = k * P::BLOCK_THREADS + int(threadIdx.x);
      if (i < valid)
        values_out[s.digit_base[digits[k]] + i] = s.x.values[i];
    }
  }
}

/*
 * sort_single_block: every pass over n <= SINGLE_MAX_KEYS keys in one
 * block, in one launch, with no scratch (sort_block.cuh).
 */
template <class KT, class V>
__global__ void
__launch_bounds__(SortPolicy<typename KT::Bits, V>::SINGLE_THREADS)
    sort_single_block(const typename KT::Bits *keys_in,
                      typename KT::Bits *keys_out, const V *values_in,
                      V *values_out, int n, unsigned begin_bit,
                      unsigned end_bit, typename KT::Bits flip) {
  using P = SortPolicy<typename KT::Bits, V>;
  using Sort = BlockSort<KT, V, P::SINGLE_THREADS, P::SINGLE_ITEMS>;
  __shared__ typename Sort::Shared s;
  Sort::sort(keys_in, keys_out, values_in, values_out, n, begin_bit, end_bit,
             flip, s);
}

/* Where the scratch regions of a sort start (bytes from its base), each at
 * PRISM__CUDA_SCRATCH_ALIGN:
 *   alt_keys    n keys: the other half of the keys' ping-pong
 *   alt_values  n values (pairs only)
 *   bins        passes x RADIX_DIGITS 64-bit counts, then digit starts
 *   ticket      the onesweep launch's tile ticket, in its own aligned slot
 *   status      PORTION_TILES x RADIX_DIGITS 64-bit look-back words
 * ticket and status are contiguous, so one memset clears both. */
struct SortScratch {
  size_t alt_keys, alt_values, bins, ticket, status, total;
};

inline SortScratch sort_scratch(size_t n, size_t key_size, size_t value_size,
                                unsigned passes, size_t portion_tiles) {
  SortScratch s;
  s.alt_keys = 0;
  s.alt_values = s.alt_keys + prism__cuda_align(n * key_size);
  s.bins = s.alt_values + prism__cuda_align(n * value_size);
  s.ticket = s.bins + prism__cuda_align(size_t(passes) * RADIX_DIGITS *
                                        sizeof(unsigned long long));
  s.status = s.ticket + PRISM__CUDA_SCRATCH_ALIGN;
  s.total =
      s.status + portion_tiles * RADIX_DIGITS * sizeof(unsigned long long);
  return s;
}

template <class KT, class V>
prism_status run_sort(prism_context *ctx, prism__cuda_ctx *c,
                      const prism__sort_args *args) {
  using K = typename KT::Bits;
  using P = SortPolicy<K, V>;
  constexpr bool PAIRS = HAS_VALUES<V>;
  const size_t n = args->n;
  const unsigned begin_bit = args->begin_bit, end_bit = args->end_bit;
  const unsigned passes = sort_passes(begin_bit, end_bit);
  const K flip = args->descending ? K(~K(0)) : K(0);
  // Keys and values are loaded and stored one element at a time, so a
  // view's element alignment is all they need. In place is decided on the
  // device addresses (one address space); core passes only pairs that are
  // the same (native, offset) or apart.
  const K *keys_in = mem_ptr<const K>(args->keys_in);
  K *keys_out = mem_ptr<K>(args->keys_out);
  const V *values_in = PAIRS ? mem_ptr<const V>(args->values_in) : NULL;
  V *values_out = PAIRS ? mem_ptr<V>(args->values_out) : NULL;

  if (n <= size_t(P::SINGLE_MAX_KEYS)) {
    sort_single_block<KT, V><<<1, P::SINGLE_THREADS, 0, c->stream>>>(
        keys_in, keys_out, values_in, values_out, int(n), begin_bit, end_bit,
        flip);
    return prism__cuda_check_launch(ctx, "sort_single_block");
  }

  const size_t tiles = (n + P::TILE_ITEMS - 1) / P::TILE_ITEMS;
  const size_t portion_tiles =
      tiles < P::PORTION_TILES ? tiles : P::PORTION_TILES;
  const SortScratch layout =
      sort_scratch(n, sizeof(K), PAIRS ? sizeof(V) : 0, passes, portion_tiles);
  void *scratch = NULL;
  prism_status st = prism__scratch(ctx, layout.total, &scratch);
  if (st != PRISM_OK)
    return st;
  char *base = static_cast<char *>(scratch);
  K *alt_keys = reinterpret_cast<K *>(base + layout.alt_keys);
  V *alt_values =
      PAIRS ? reinterpret_cast<V *>(base + layout.alt_values) : NULL;
  unsigned long long *bins =
      reinterpret_cast<unsigned long long *>(base + layout.bins);
  unsigned *ticket = reinterpret_cast<unsigned *>(base + layout.ticket);
  unsigned long long *status =
      reinterpret_cast<unsigned long long *>(base + layout.status);

  // In place with an odd number of passes, pass 0 would write its own
  // input: it reads a copy instead.
  const bool odd = passes % 2 == 1;
  const K *src_keys = keys_in;
  const V *src_values = values_in;
  if (odd && keys_in == keys_out) {
    PRISM_CUDA_TRY(ctx, cudaMemcpyAsync, alt_keys, keys_in, n * sizeof(K),
                   cudaMemcpyDeviceToDevice, c->stream);
    src_keys = alt_keys;
  }
  if (PAIRS && odd && values_in == values_out) {
    PRISM_CUDA_TRY(ctx, cudaMemcpyAsync, alt_values, values_in, n * sizeof(V),
                   cudaMemcpyDeviceToDevice, c->stream);
    src_values = alt_values;
  }

  // Histograms: a full wave at most, and no block counting 2^31 keys.
  PRISM_CUDA_TRY(ctx, cudaMemsetAsync, bins, 0,
                 size_t(passes) * RADIX_DIGITS * sizeof(unsigned long long),
                 c->stream);
  constexpr size_t HIST_TRIP = size_t(SORT_HIST_THREADS) * SORT_HIST_ITEMS;
  size_t hist_blocks = (n + HIST_TRIP - 1) / HIST_TRIP;
  const size_t wave = size_t(c->sm_count) * SORT_HIST_BLOCKS_PER_SM;
  if (hist_blocks > wave)
    hist_blocks = wave;
  const size_t min_blocks = (n >> 31) + 1;
  if (hist_blocks < min_blocks)
    hist_blocks = min_blocks;
  sort_histogram<KT>
      <<<unsigned(hist_blocks), SORT_HIST_THREADS, 0, c->stream>>>(
          keys_in, n, begin_bit, end_bit, flip, bins);
  if ((st = prism__cuda_check_launch(ctx, "sort_histogram")) != PRISM_OK)
    return st;
  sort_offsets<<<1, RADIX_DIGITS, 0, c->stream>>>(bins, passes);
  if ((st = prism__cuda_check_launch(ctx, "sort_offsets")) != PRISM_OK)
    return st;

  for (unsigned p = 0; p < passes; ++p) {
    const bool to_out = (passes - 1 - p) % 2 == 0;
    K *dst_keys = to_out ? keys_out : alt_keys;
    V *dst_values = to_out ? values_out : alt_values;
    const DigitOf<KT> digit_of = pass_digit<KT>(flip, begin_bit, end_bit, p);
    for (size_t first = 0; first < tiles; first += portion_tiles) {
      const size_t count =
          tiles - first < portion_tiles ? tiles - first : portion_tiles;
      PRISM_CUDA_TRY(ctx, cudaMemsetAsync, ticket, 0,
                     PRISM__CUDA_SCRATCH_ALIGN +
                         count * RADIX_DIGITS * sizeof(unsigned long long),
                     c->stream);
      sort_onesweep<KT, V><<<unsigned(count), P::BLOCK_THREADS, 0, c->stream>>>(
          src_keys, dst_keys, src_values, dst_values, n, first * P::TILE_ITEMS,
          bins + size_t(p) * RADIX_DIGITS, status, ticket, digit_of);
      if ((st = prism__cuda_check_launch(ctx, "sort_onesweep")) != PRISM_OK)
        return st;
    }
    src_keys = dst_keys;
    src_values = dst_values;
  }
  return PRISM_OK;
}

} // namespace
} // namespace prism_cuda

extern "C" size_t prism__cuda_sort_scratch_bytes(prism_context *ctx,
                                                 const prism__sort_args *args) {
  size_t bytes = 0;
  if (args->n == 0)
    return 0;
  prism_cuda::dispatch_sort(
      ctx, args->key_type, args->value_size, [&](auto tag) {
        using Tag = decltype(tag);
        using K = typename prism_cuda::SortKey<Tag::key_type>::Bits;
        using V = typename prism_cuda::SortValue<Tag::value_bytes>::type;
        using P = prism_cuda::SortPolicy<K, V>;
        if (args->n > size_t(P::SINGLE_MAX_KEYS)) {
          const size_t tiles = (args->n + P::TILE_ITEMS - 1) / P::TILE_ITEMS;
          const size_t portion_tiles =
              tiles < P::PORTION_TILES ? tiles : P::PORTION_TILES;
          bytes =
              prism_cuda::sort_scratch(
                  args->n, sizeof(K), prism_cuda::HAS_VALUES<V> ? sizeof(V) : 0,
                  prism_cuda::sort_passes(args->begin_bit, args->end_bit),
                  portion_tiles)
                  .total;
        }
        return PRISM_OK;
      });
  return bytes;
}

extern "C" prism_status prism__cuda_sort(prism_context *ctx,
                                         const prism__sort_args *args) {
  prism__cuda_ctx *c = NULL;
  prism_status st = prism__cuda_enter(ctx, &c);
  if (st != PRISM_OK)
    return st;
  if (args->n == 0)
    return PRISM_OK;
  return prism_cuda::dispatch_sort(
      ctx, args->key_type, args->value_size, [&](auto tag) {
        using Tag = decltype(tag);
        using KT = prism_cuda::SortKey<Tag::key_type>;
        using V = typename prism_cuda::SortValue<Tag::value_bytes>::type;
        return prism_cuda::run_sort<KT, V>(ctx, c, args);
      });
}
