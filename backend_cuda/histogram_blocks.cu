/* SPDX-License-Identifier: MIT */
/*
 * Histograms of samples wider than a byte:
 * - histogram_blocks: each block privatises the counters of one range of
 *   bins in shared memory (in several replicas, one per warp, so that
 *   warps hitting the same bins do not queue on each other), counts a
 *   grid-strided share of the samples there with shared atomics, and
 *   merges its non-zero counters into counts with one global atomic each.
 *   When the bins do not fit one block's shared memory they are split into
 *   up to HIST_MAX_RANGES ranges, one block per (range, slice of the
 *   input); the blocks of one slice are neighbours in the grid and run side
 *   by side, so the input comes from DRAM about once and from L2 once per
 *   range.
 * - histogram_atomic: more bins than that: counts go straight to global
 *   memory with global atomics.
 * Both aggregate before an atomic (count_items): a warp whose samples all
 * fall in one bin adds them with one atomic, and a thread adds a run of
 * equal bins as one count. So input with every sample in one bin costs
 * fewer atomics than uniform input, not more.
 */
#include "histogram.cuh"

namespace prism_cuda {
namespace {

/*
 * count_items: adds GROUP bins (NO_BIN: nothing) with count(bin, c).
 * Every lane of the warp calls it together. A warp whose bins are all one
 * bin adds them with one call (every sample in one bin: one atomic per
 * warp and group); otherwise each thread adds its runs of equal bins, one
 * call per run (the state carries over from the previous group).
 */
template <int GROUP, class Count>
__device__ __forceinline__ void count_items(const unsigned (&bin)[GROUP],
                                            unsigned &run, unsigned &len,
                                            Count count) {
  bool same = true;
#pragma unroll
  for (int j = 1; j < GROUP; ++j)
    same &= bin[j] == bin[0];
  const unsigned lead = __shfl_sync(FULL_MASK, bin[0], 0);
  if (__all_sync(FULL_MASK, same && bin[0] == lead)) {
    if (lane_id() == 0 && lead != NO_BIN)
      count(lead, unsigned(GROUP * WARP_THREADS));
    return;
  }
#pragma unroll
  for (int j = 0; j < GROUP; ++j) {
    if (bin[j] == run) {
      ++len;
    } else {
      if (run != NO_BIN)
        count(run, len);
      run = bin[j];
      len = 1;
    }
  }
}

/*
 * count_tiles: the part of the samples a block owns, counted through
 * count. Tiles of TILE_ITEMS samples; block slice of slices takes tiles
 * slice, slice + slices, ... Each thread loads its ITEMS samples of a tile
 * as ITEMS / VEC 16-byte vectors (vector k of thread t is the tile's
 * vector k * BLOCK_THREADS + t: coalesced), all before counting any, then
 * counts them in groups of GROUP. The last, partial tile is loaded element
 * by element by the slice whose turn it is. Trip counts are the same for
 * the whole block, so count_items always has the whole warp. samples must
 * be 16-byte aligned (split_head, histogram.cuh, sees to it).
 */
template <class T, class Count>
__device__ __forceinline__ void
count_tiles(const T *__restrict__ samples, size_t n, const BinMap<T> &m,
            unsigned first, unsigned count, size_t slice, size_t slices,
            Count add) {
  using P = HistPolicy<T>;
  using V = Vec16<T>;
  constexpr int VEC = V::N, VECS = P::ITEMS / VEC, GROUP = P::GROUP;
  const V *__restrict__ vin = reinterpret_cast<const V *>(samples);
  const size_t full_tiles = n / P::TILE_ITEMS;
  unsigned run = NO_BIN, len = 0;

  for (size_t tile = slice; tile < full_tiles; tile += slices) {
    const size_t v0 = tile * (P::BLOCK_THREADS * VECS) + threadIdx.x;
    V v[VECS];
#pragma unroll
    for (int k = 0; k < VECS; ++k)
      v[k] = vin[v0 + size_t(k) * P::BLOCK_THREADS];
#pragma unroll
    for (int g = 0; g < P::ITEMS; g += GROUP) {
      T x[GROUP];
#pragma unroll
      for (int j = 0; j < GROUP; ++j)
        x[j] = v[(g + j) / VEC].v[(g + j) % VEC];
      unsigned bin[GROUP];
      item_bins(m, x, first, count, bin);
      count_items(bin, run, len, add);
    }
  }

  if (full_tiles * P::TILE_ITEMS < n && full_tiles % slices == slice) {
    const size_t v0 = full_tiles * (P::BLOCK_THREADS * VECS) + threadIdx.x;
#pragma unroll
    for (int g = 0; g < P::ITEMS; g += GROUP) {
      T x[GROUP];
      bool valid[GROUP];
#pragma unroll
      for (int j = 0; j < GROUP; ++j) {
        const size_t i = (v0 + size_t((g + j) / VEC) * P::BLOCK_THREADS) * VEC +
                         (g + j) % VEC;
        valid[j] = i < n;
        x[j] = valid[j] ? samples[i] : T(0);
      }
      unsigned bin[GROUP];
      item_bins(m, x, first, count, bin);
#pragma unroll
      for (int j = 0; j < GROUP; ++j)
        bin[j] = valid[j] ? bin[j] : NO_BIN;
      count_items(bin, run, len, add);
    }
  }
  if (run != NO_BIN)
    add(run, len);
}

struct SharedCount {
  unsigned *hist;
  __device__ __forceinline__ void operator()(unsigned bin, unsigned c) const {
    atomicAdd(hist + bin, c);
  }
};

template <class C> struct GlobalCount {
  C *counts;
  __device__ __forceinline__ void operator()(unsigned bin, unsigned c) const {
    atomicAdd(counts + bin, C(c));
  }
};

/* Shared memory of histogram_blocks: replicas x range_bins 32-bit
 * counters, then (BIN_SEARCH) the range's range_bins + 1 edges. */
__host__ __device__ inline size_t blocks_edges_offset(unsigned replicas,
                                                      unsigned range_bins) {
  return (size_t(replicas) * range_bins * sizeof(unsigned) + 15) & ~size_t(15);
}

/*
 * histogram_blocks: ownership: block b owns bin range b % ranges (bins
 * [first, first + count), count <= range_bins) and input slice b / ranges
 * (its tiles, count_tiles); warp w counts into shared replica w % replicas.
 * Partials meet: shared atomics within the block (32-bit: the host keeps
 * each block under 2^32 samples), then one global atomic per non-zero
 * counter of the range, summed over the replicas, into counts (zeroed by
 * the host; 64-bit atomics for u64 counters).
 * Traffic: each sample read once per range (coalesced 16-byte loads; the
 * ranges' blocks of a slice run together, so mostly from L2 after the
 * first); shared atomics per run of equal bins; at most range_bins global
 * atomics per block.
 */
template <class T>
__global__ void __launch_bounds__(
    HistPolicy<T>::BLOCK_THREADS,
    min_blocks_for_arch(HIST_MIN_BLOCKS_PER_SM, HistPolicy<T>::BLOCK_THREADS))
    histogram_blocks(const T *__restrict__ samples, size_t n, BinMap<T> map,
                     unsigned range_bins, unsigned ranges, unsigned replicas,
                     void *counts, int wide_counts) {
  using P = HistPolicy<T>;
  extern __shared__ __align__(16) unsigned char hist_smem[];
  unsigned *hist = reinterpret_cast<unsigned *>(hist_smem);
  const unsigned part = blockIdx.x % ranges;
  const size_t slice = blockIdx.x / ranges, slices = gridDim.x / ranges;
  const unsigned first = part * range_bins;
  const unsigned count = min(range_bins, map.bins - first);

  for (unsigned i = threadIdx.x; i < replicas * range_bins;
       i += P::BLOCK_THREADS)
    hist[i] = 0;
  BinMap<T> m = map;
  if (map.mode == BIN_SEARCH) {
    T *edges = reinterpret_cast<T *>(hist_smem +
                                     blocks_edges_offset(replicas, range_bins));
    for (unsigned i = threadIdx.x; i <= count; i += P::BLOCK_THREADS)
      edges[i] = map.edges[first + i];
    m.edges = edges;
  }
  __syncthreads();

  count_tiles(samples, n, m, first, count, slice, slices,
              SharedCount{hist + unsigned(warp_id()) % replicas * range_bins});
  __syncthreads();

  for (unsigned b = threadIdx.x; b < count; b += P::BLOCK_THREADS) {
    unsigned sum = 0;
    for (unsigned r = 0; r < replicas; ++r)
      sum += hist[r * range_bins + b];
    if (sum == 0)
      continue;
    if (wide_counts)
      atomicAdd(static_cast<unsigned long long *>(counts) + first + b,
                (unsigned long long)sum);
    else
      atomicAdd(static_cast<unsigned *>(counts) + first + b, sum);
  }
}

/*
 * histogram_atomic: ownership: block b owns tiles b, b + gridDim.x, ...
 * (count_tiles) and no counter. Partials meet: global atomics into counts
 * (zeroed by the host), one per run of equal bins in a thread, or one per
 * warp and group when the warp's samples share a bin. BIN_SEARCH searches
 * every edge, in global memory.
 * Traffic: each sample read once (coalesced 16-byte loads); one global
 * atomic per run, to addresses as scattered as the bins.
 */
template <class T, class C>
__global__ void __launch_bounds__(HistPolicy<T>::BLOCK_THREADS)
    histogram_atomic(const T *__restrict__ samples, size_t n, BinMap<T> map,
                     C *counts) {
  count_tiles(samples, n, map, 0, map.bins, blockIdx.x, gridDim.x,
              GlobalCount<C>{counts});
}

/* How histogram_blocks splits the bins, or ranges = 0 for
 * histogram_atomic. */
struct BlocksPlan {
  unsigned ranges, range_bins, replicas;
  size_t smem;
};

template <class T>
BlocksPlan plan_blocks(size_t bins, bool ranged, int smem_optin) {
  using P = HistPolicy<T>;
  BlocksPlan p = {0, 0, 0, 0};
  const size_t per_bin = sizeof(unsigned) + (ranged ? sizeof(T) : 0);
  size_t budget = HIST_SMEM_BYTES;
  if (smem_optin > 0 && budget > size_t(smem_optin))
    budget = size_t(smem_optin);
  const size_t fixed = 16 + (ranged ? sizeof(T) : 0); // alignment, last edge
  if (budget <= fixed + per_bin)
    return p;
  const size_t max_range_bins = (budget - fixed) / per_bin;
  const size_t ranges = (bins + max_range_bins - 1) / max_range_bins;
  if (ranges > size_t(HIST_MAX_RANGES))
    return p;
  p.range_bins = unsigned((bins + ranges - 1) / ranges);
  p.ranges = unsigned((bins + p.range_bins - 1) / p.range_bins); // none empty
  size_t replicas = HIST_REPLICA_BYTES / (size_t(p.range_bins) * 4);
  const size_t warps = P::BLOCK_THREADS / WARP_THREADS;
  if (replicas > size_t(HIST_MAX_REPLICAS))
    replicas = HIST_MAX_REPLICAS;
  if (replicas > warps)
    replicas = warps;
  if (replicas < 1)
    replicas = 1;
  p.replicas = unsigned(replicas);
  p.smem = blocks_edges_offset(p.replicas, p.range_bins) +
           (ranged ? (size_t(p.range_bins) + 1) * sizeof(T) : 0);
  return p;
}

template <class T>
prism_status run_blocks(prism_context *ctx, prism__cuda_ctx *c,
                        const prism__histogram_args *args, const BinMap<T> &map,
                        const BlocksPlan &p) {
  using P = HistPolicy<T>;
  if (p.smem > 48 * 1024)
    PRISM_CUDA_TRY(ctx, cudaFuncSetAttribute, histogram_blocks<T>,
                   cudaFuncAttributeMaxDynamicSharedMemorySize, int(p.smem));
  int per_sm = 0;
  PRISM_CUDA_TRY(ctx, cudaOccupancyMaxActiveBlocksPerMultiprocessor, &per_sm,
                 histogram_blocks<T>, P::BLOCK_THREADS, p.smem);
  if (per_sm > HIST_BLOCKS_PER_SM)
    per_sm = HIST_BLOCKS_PER_SM;
  if (per_sm < 1)
    per_sm = 1;
  size_t wave = size_t(c->sm_count) * size_t(per_sm) / p.ranges;
  const size_t slices =
      prism__histogram_slices(wave ? wave : 1, args->n, P::TILE_ITEMS);
  const size_t grid = slices * p.ranges;
  const T *samples = NULL;
  size_t n = 0;
  prism_status st = split_head(ctx, c, args, map, &samples, &n);
  if (st != PRISM_OK)
    return st;
  histogram_blocks<T><<<unsigned(grid), P::BLOCK_THREADS, p.smem, c->stream>>>(
      samples, n, map, p.range_bins, p.ranges, p.replicas,
      prism__cuda_ptr(args->counts), args->counter_type == PRISM_U64);
  return prism__cuda_check_launch(ctx, "histogram_blocks");
}

template <class T, class C>
prism_status run_atomic(prism_context *ctx, prism__cuda_ctx *c,
                        const prism__histogram_args *args,
                        const BinMap<T> &map) {
  using P = HistPolicy<T>;
  const size_t wave = size_t(c->sm_count) * HIST_BLOCKS_PER_SM;
  const size_t grid = prism__histogram_slices(wave, args->n, P::TILE_ITEMS);
  const T *samples = NULL;
  size_t n = 0;
  prism_status st = split_head(ctx, c, args, map, &samples, &n);
  if (st != PRISM_OK)
    return st;
  histogram_atomic<T, C><<<unsigned(grid), P::BLOCK_THREADS, 0, c->stream>>>(
      samples, n, map, mem_ptr<C>(args->counts));
  return prism__cuda_check_launch(ctx, "histogram_atomic");
}

template <class T>
prism_status run_wide(prism_context *ctx, prism__cuda_ctx *c,
                      const prism__histogram_args *args) {
  BinMap<T> map;
  prism_status st = stage_call(ctx, c, args, map);
  if (st != PRISM_OK)
    return st;
  int optin = 0;
  PRISM_CUDA_TRY(ctx, cudaDeviceGetAttribute, &optin,
                 cudaDevAttrMaxSharedMemoryPerBlockOptin, c->device);
  const BlocksPlan plan = plan_blocks<T>(args->bins, args->ranged, optin);
  if (plan.ranges > 0)
    return run_blocks<T>(ctx, c, args, map, plan);
  if (args->counter_type == PRISM_U64)
    return run_atomic<T, unsigned long long>(ctx, c, args, map);
  return run_atomic<T, unsigned>(ctx, c, args, map);
}

} // namespace

prism_status run_histogram_blocks(prism_context *ctx, prism__cuda_ctx *c,
                                  const prism__histogram_args *args) {
  switch (args->sample_type) {
  case PRISM_I32:
    return run_wide<int32_t>(ctx, c, args);
  case PRISM_U32:
    return run_wide<uint32_t>(ctx, c, args);
  case PRISM_F32:
    return run_wide<float>(ctx, c, args);
  case PRISM_I64:
    return run_wide<int64_t>(ctx, c, args);
  case PRISM_U64:
    return run_wide<uint64_t>(ctx, c, args);
  case PRISM_F64:
    return run_wide<double>(ctx, c, args);
  default:
    break;
  }
  return prism__fail(ctx, PRISM_INTERNAL, "CUDA backend: unknown type %d",
                     (int)args->sample_type);
}

} // namespace prism_cuda
