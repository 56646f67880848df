/* SPDX-License-Identifier: MIT */
/*
 * Histograms (prism_histogram_even, prism_histogram_range): the samples
 * counted per bin, each sample's bin computed exactly as core mapped it
 * (core/backend.h, prism__histogram_args). Three kernels (the OpenCL port
 * uses the same names):
 *
 * - histogram_bytes: 1-byte samples, whatever the bins: shared counters
 *   per byte value, so counting does no bin arithmetic; the 256 values are
 *   mapped to their bins once per block, at the end.
 * - histogram_blocks: wider samples. Each block privatises the counters of
 *   one range of bins in shared memory (in several replicas, one per warp,
 *   so that warps hitting the same bins do not queue on each other), counts
 *   a grid-strided share of the samples there with shared atomics, and
 *   merges its non-zero counters into counts with one global atomic each.
 *   When the bins do not fit one block's shared memory they are split into
 *   up to HIST_MAX_RANGES ranges, one block per (range, slice of the
 *   input); the blocks of one slice are neighbours in the grid and run side
 *   by side, so the input comes from DRAM about once and from L2 once per
 *   range.
 * - histogram_atomic: more bins than that: counts go straight to global
 *   memory with global atomics.
 *
 * All aggregate before an atomic (count_items, count_bytes): a warp whose
 * samples all fall in one bin adds them with one atomic, and a thread adds
 * a run of equal bins (or a vector of one byte value) as one count. So
 * input with every sample in one bin costs fewer atomics than uniform
 * input, not more.
 *
 * counts is zeroed on the stream first. A ranged histogram copies its edges
 * into scratch (cudaMemcpyAsync from pageable memory returns once the edges
 * are staged, so the caller may reuse them at once).
 */
#include "block.cuh"
#include "cuda_internal.h"
#include "ops.cuh"
#include "tuning.cuh"

#include <cuda/std/type_traits>
#include <stdint.h>
#include <string.h>

namespace prism_cuda {
namespace {

/* How a sample becomes a bin (host-chosen per call; core/backend.h says
 * what each computes). */
enum BinMode {
  BIN_SHIFT,     /* (x - lower) >> shift, counted when x - lower <= span */
  BIN_SHIFT_ALL, /* the same, the bounds covering the type: all counted */
  BIN_DIVIDE,    /* (x - lower) / width, counted when x - lower <= span */
  BIN_SCALE,     /* floor((x - lower) * bins / (span + 1)), exactly */
  BIN_FLOAT,     /* (x - lower) * scale, truncated, capped at bins - 1 */
  BIN_SEARCH     /* binary search over the edges */
};

/* A sample that is not counted (outside the bounds or the block's range
 * of bins, NaN, past n). Above every bin: bins <= 2^31. */
constexpr unsigned NO_BIN = 0xffffffffu;

/* Integer samples as the unsigned type their differences are taken in. */
template <class T>
using HistUnsigned =
    cuda::std::conditional_t<sizeof(T) == 8, uint64_t, uint32_t>;

template <class T> struct BinMap {
  using U = HistUnsigned<T>;
  int mode;
  unsigned bins;
  T lower, upper, scale; /* lower: integers and floats; the rest floats */
  U span, width;
  unsigned shift;
  unsigned long long range; /* BIN_SCALE: span + 1, 0 standing for 2^64 */
  const T *edges;           /* BIN_SEARCH: the (block's) edges */
};

/* floor(d * bins / range) for 64-bit d, exactly: the product takes 96
 * bits. The quotient is below bins <= 2^31, so a restoring division over
 * the product's low 32 bits finds it, the remainder starting as the
 * product shifted right by 32 (below range, since the quotient is). */
__device__ __forceinline__ unsigned scale_bin64(uint64_t d, unsigned bins,
                                                unsigned long long range) {
  const uint64_t lo = d * bins, hi = __umul64hi(d, bins);
  if (range == 0) // span + 1 = 2^64
    return unsigned(hi);
  uint64_t r = (hi << 32) | (lo >> 32);
  unsigned q = 0;
#pragma unroll 4
  for (int i = 31; i >= 0; --i) {
    const uint64_t carry = r >> 63;
    r = (r << 1) | ((lo >> i) & 1u);
    q <<= 1;
    if (carry || r >= range) {
      r -= range;
      q |= 1u;
    }
  }
  return q;
}

template <class T>
__device__ __forceinline__ unsigned float_bin(const BinMap<T> &m, T x) {
  if (!(m.lower <= x && x < m.upper)) // NaN fails too
    return NO_BIN;
  unsigned b;
  if constexpr (sizeof(T) == 4)
    b = __float2uint_rz(__fmul_rn(__fsub_rn(x, m.lower), m.scale));
  else
    b = __double2uint_rz(__dmul_rn(__dsub_rn(x, m.lower), m.scale));
  return min(b, m.bins - 1);
}

/* The bin of x among count bins with edges e[0..count]: the last edge at
 * or below x, by a binary search of a fixed number of steps. */
template <class T>
__device__ __forceinline__ unsigned search_bin(const T *e, unsigned count,
                                               T x) {
  if (!(e[0] <= x && x < e[count])) // NaN fails too
    return NO_BIN;
  unsigned lo = 0, len = count; // e[lo] <= x < e[lo + len]
  while (len > 1) {
    const unsigned step = len >> 1;
    lo = e[lo + step] <= x ? lo + step : lo;
    len -= step;
  }
  return lo;
}

/* The bins of GROUP samples, relative to the block's range of bins
 * [first, first + count): NO_BIN where not counted here. BIN_SEARCH
 * searches m.edges, which hold the range's count + 1 edges. */
template <class T, int GROUP>
__device__ __forceinline__ void
item_bins(const BinMap<T> &m, const T (&x)[GROUP], unsigned first,
          unsigned count, unsigned (&bin)[GROUP]) {
  using U = HistUnsigned<T>;
  if (m.mode == BIN_SEARCH) {
#pragma unroll
    for (int j = 0; j < GROUP; ++j)
      bin[j] = search_bin(m.edges, count, x[j]);
    return;
  }
  if constexpr (cuda::std::is_floating_point_v<T>) {
#pragma unroll
    for (int j = 0; j < GROUP; ++j)
      bin[j] = float_bin(m, x[j]);
  } else {
    const U lower = U(m.lower);
    switch (m.mode) {
    case BIN_SHIFT_ALL:
#pragma unroll
      for (int j = 0; j < GROUP; ++j)
        bin[j] = unsigned((U(x[j]) - lower) >> m.shift);
      break;
    case BIN_SHIFT:
#pragma unroll
      for (int j = 0; j < GROUP; ++j) {
        const U d = U(x[j]) - lower;
        bin[j] = d <= m.span ? unsigned(d >> m.shift) : NO_BIN;
      }
      break;
    case BIN_DIVIDE:
#pragma unroll
      for (int j = 0; j < GROUP; ++j) {
        const U d = U(x[j]) - lower;
        bin[j] = d <= m.span ? unsigned(d / m.width) : NO_BIN;
      }
      break;
    default: // BIN_SCALE
#pragma unroll
      for (int j = 0; j < GROUP; ++j) {
        const U d = U(x[j]) - lower;
        if (d > m.span)
          bin[j] = NO_BIN;
        else if constexpr (sizeof(T) == 8)
          bin[j] = scale_bin64(d, m.bins, m.range);
        else
          bin[j] = unsigned(uint64_t(d) * m.bins / m.range);
      }
      break;
    }
  }
  // To the block's range; NO_BIN - first stays at or above count.
#pragma unroll
  for (int j = 0; j < GROUP; ++j) {
    const unsigned rel = bin[j] - first;
    bin[j] = rel < count ? rel : NO_BIN;
  }
}

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
 * the whole block, so count_items always has the whole warp.
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

/* count_bytes: a thread's 16 bytes into its replica h, a counter per
 * byte value. A warp whose vectors all hold one byte value (skewed input)
 * adds them with one atomic; a thread whose vector does, with one atomic;
 * otherwise one atomic per byte. */
__device__ __forceinline__ void count_bytes(const uint4 &v, unsigned *h) {
  const unsigned w = v.x;
  const bool one_value =
      v.x == v.y && v.x == v.z && v.x == v.w && w == (w & 0xffu) * 0x01010101u;
  const unsigned lead = __shfl_sync(FULL_MASK, w, 0);
  if (__all_sync(FULL_MASK, one_value && w == lead)) {
    if (lane_id() == 0)
      atomicAdd(h + (lead & 0xffu), 16u * WARP_THREADS);
    return;
  }
  if (one_value) {
    atomicAdd(h + (w & 0xffu), 16u);
    return;
  }
  const unsigned words[4] = {v.x, v.y, v.z, v.w};
#pragma unroll
  for (int k = 0; k < 4; ++k)
#pragma unroll
    for (int b = 0; b < 32; b += 8)
      atomicAdd(h + ((words[k] >> b) & 0xffu), 1u);
}

/*
 * histogram_bytes: 1-byte samples, any bins and mapping (the fast path of
 * 256-bin byte histograms). Ownership: block b owns tiles b, b +
 * gridDim.x, ... of TILE_ITEMS bytes and replicas x 256 shared counters,
 * one per byte value (warp w counts into replica w % replicas): a sample's
 * value is its counter, so counting does no bin arithmetic at all.
 * Partials meet at the end: thread v < 256 sums value v over the replicas,
 * maps v to its bin (item_bins, as every kernel maps samples) and adds the
 * sum to counts with one global atomic (zeroed by the host).
 * Traffic: each sample read once (coalesced 16-byte loads); one shared
 * atomic per byte (one per 16 or 512 bytes of one value); at most 256
 * global atomics per block.
 */
__global__ void
__launch_bounds__(HistPolicy<uint8_t>::BLOCK_THREADS,
                  min_blocks_for_arch(HIST_MIN_BLOCKS_PER_SM,
                                      HistPolicy<uint8_t>::BLOCK_THREADS))
    histogram_bytes(const uint8_t *__restrict__ samples, size_t n,
                    BinMap<uint8_t> map, unsigned replicas, void *counts,
                    int wide_counts) {
  using P = HistPolicy<uint8_t>;
  constexpr int VECS = P::ITEMS / 16;
  __shared__ unsigned hist[HIST_MAX_REPLICAS * 256];
  for (unsigned i = threadIdx.x; i < replicas * 256; i += P::BLOCK_THREADS)
    hist[i] = 0;
  __syncthreads();
  unsigned *mine = hist + unsigned(warp_id()) % replicas * 256;

  const uint4 *__restrict__ vin = reinterpret_cast<const uint4 *>(samples);
  const size_t full_tiles = n / P::TILE_ITEMS;
  for (size_t tile = blockIdx.x; tile < full_tiles; tile += gridDim.x) {
    const size_t v0 = tile * (P::BLOCK_THREADS * VECS) + threadIdx.x;
    uint4 v[VECS];
#pragma unroll
    for (int k = 0; k < VECS; ++k)
      v[k] = vin[v0 + size_t(k) * P::BLOCK_THREADS];
#pragma unroll
    for (int k = 0; k < VECS; ++k)
      count_bytes(v[k], mine);
  }
  // The last, partial tile, a byte at a time, by the block whose turn it
  // is.
  const size_t rest = full_tiles * P::TILE_ITEMS;
  if (rest < n && full_tiles % gridDim.x == blockIdx.x)
    for (size_t i = rest + threadIdx.x; i < n; i += P::BLOCK_THREADS)
      atomicAdd(mine + samples[i], 1u);
  __syncthreads();

  for (unsigned value = threadIdx.x; value < 256; value += P::BLOCK_THREADS) {
    unsigned sum = 0;
    for (unsigned r = 0; r < replicas; ++r)
      sum += hist[r * 256 + value];
    const uint8_t x[1] = {uint8_t(value)};
    unsigned bin[1];
    item_bins(map, x, 0, map.bins, bin);
    if (sum == 0 || bin[0] == NO_BIN)
      continue;
    if (wide_counts)
      atomicAdd(static_cast<unsigned long long *>(counts) + bin[0],
                (unsigned long long)sum);
    else
      atomicAdd(static_cast<unsigned *>(counts) + bin[0], sum);
  }
}

/* The sample type's member of a prism_value. */
template <class T> T value_of(const prism_value &v) {
  T x;
  memcpy(&x, &v, sizeof x);
  return x;
}

template <class T> BinMap<T> bin_map(const prism__histogram_args *a) {
  using U = HistUnsigned<T>;
  BinMap<T> m;
  memset(&m, 0, sizeof m);
  m.bins = unsigned(a->bins);
  if (a->ranged) {
    m.mode = BIN_SEARCH;
    return m;
  }
  m.lower = value_of<T>(a->lower);
  if constexpr (cuda::std::is_floating_point_v<T>) {
    m.mode = BIN_FLOAT;
    m.upper = value_of<T>(a->upper);
    m.scale = value_of<T>(a->scale);
  } else {
    m.span = U(a->span);
    const uint64_t w = a->width;
    // A width the unsigned type cannot hold (2^32 for 32-bit samples: one
    // bin over the whole type) takes the general path.
    if (w != 0 && w <= uint64_t(U(~U(0)))) {
      m.width = U(w);
      if ((w & (w - 1)) == 0) {
        while ((uint64_t(1) << m.shift) < w)
          ++m.shift;
        // Bounds covering the type: for bytes, span 255 means [0, 256).
        const bool all = a->span == uint64_t(U(~U(0))) ||
                         (sizeof(T) == 1 && a->span == 0xffu);
        m.mode = all ? BIN_SHIFT_ALL : BIN_SHIFT;
      } else {
        m.mode = BIN_DIVIDE;
      }
    } else {
      m.mode = BIN_SCALE;
      m.range = a->span + 1; // wraps to 0 for 2^64
    }
  }
  return m;
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

/* Slices of the input: a full wave of blocks at most, no more than there
 * are tiles, and enough that no block counts 2^32 samples. */
inline size_t hist_slices(size_t wave, size_t n, size_t tile_items) {
  const size_t tiles = (n + tile_items - 1) / tile_items;
  size_t slices = wave < tiles ? wave : tiles;
  const size_t least = (n >> 31) + 1;
  if (slices < least)
    slices = least;
  return slices < 1 ? 1 : slices;
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
  const size_t slices = hist_slices(wave ? wave : 1, args->n, P::TILE_ITEMS);
  const size_t grid = slices * p.ranges;
  histogram_blocks<T><<<unsigned(grid), P::BLOCK_THREADS, p.smem, c->stream>>>(
      static_cast<const T *>(args->samples), args->n, map, p.range_bins,
      p.ranges, p.replicas, args->counts, args->counter_type == PRISM_U64);
  return prism__cuda_check_launch(ctx, "histogram_blocks");
}

template <class T, class C>
prism_status run_atomic(prism_context *ctx, prism__cuda_ctx *c,
                        const prism__histogram_args *args,
                        const BinMap<T> &map) {
  using P = HistPolicy<T>;
  const size_t wave = size_t(c->sm_count) * HIST_BLOCKS_PER_SM;
  const size_t grid = hist_slices(wave, args->n, P::TILE_ITEMS);
  histogram_atomic<T, C><<<unsigned(grid), P::BLOCK_THREADS, 0, c->stream>>>(
      static_cast<const T *>(args->samples), args->n, map,
      static_cast<C *>(args->counts));
  return prism__cuda_check_launch(ctx, "histogram_atomic");
}

prism_status run_bytes(prism_context *ctx, prism__cuda_ctx *c,
                       const prism__histogram_args *args,
                       const BinMap<uint8_t> &map) {
  using P = HistPolicy<uint8_t>;
  unsigned replicas = P::BLOCK_THREADS / WARP_THREADS;
  if (replicas > unsigned(HIST_MAX_REPLICAS))
    replicas = HIST_MAX_REPLICAS;
  const size_t wave = size_t(c->sm_count) * HIST_BLOCKS_PER_SM;
  const size_t grid = hist_slices(wave, args->n, P::TILE_ITEMS);
  histogram_bytes<<<unsigned(grid), P::BLOCK_THREADS, 0, c->stream>>>(
      static_cast<const uint8_t *>(args->samples), args->n, map, replicas,
      args->counts, args->counter_type == PRISM_U64);
  return prism__cuda_check_launch(ctx, "histogram_bytes");
}

template <class T>
prism_status run_histogram(prism_context *ctx, prism__cuda_ctx *c,
                           const prism__histogram_args *args) {
  BinMap<T> map = bin_map<T>(args);
  const size_t counter_bytes = args->counter_type == PRISM_U64 ? 8 : 4;
  PRISM_CUDA_TRY(ctx, cudaMemsetAsync, args->counts, 0,
                 args->bins * counter_bytes, c->stream);
  if (args->ranged) {
    const size_t bytes = (args->bins + 1) * sizeof(T);
    void *scratch = NULL;
    prism_status st = prism__scratch(ctx, bytes, &scratch);
    if (st != PRISM_OK)
      return st;
    PRISM_CUDA_TRY(ctx, cudaMemcpyAsync, scratch, args->edges, bytes,
                   cudaMemcpyHostToDevice, c->stream);
    map.edges = static_cast<const T *>(scratch);
  }

  if constexpr (sizeof(T) == 1) {
    return run_bytes(ctx, c, args, map);
  } else {
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
}

} // namespace
} // namespace prism_cuda

extern "C" prism_status
prism__cuda_histogram(prism_context *ctx, const prism__histogram_args *args) {
  prism__cuda_ctx *c = NULL;
  prism_status st = prism__cuda_enter(ctx, &c);
  if (st != PRISM_OK)
    return st;
  if (args->n == 0) // core answers n = 0 itself; kept for safety
    return PRISM_OK;
  switch (args->sample_type) {
  case PRISM_U8:
    return prism_cuda::run_histogram<uint8_t>(ctx, c, args);
  case PRISM_I32:
    return prism_cuda::run_histogram<int32_t>(ctx, c, args);
  case PRISM_U32:
    return prism_cuda::run_histogram<uint32_t>(ctx, c, args);
  case PRISM_F32:
    return prism_cuda::run_histogram<float>(ctx, c, args);
  case PRISM_I64:
    return prism_cuda::run_histogram<int64_t>(ctx, c, args);
  case PRISM_U64:
    return prism_cuda::run_histogram<uint64_t>(ctx, c, args);
  case PRISM_F64:
    return prism_cuda::run_histogram<double>(ctx, c, args);
  }
  return prism__fail(ctx, PRISM_INTERNAL, "CUDA backend: unknown type %d",
                     (int)args->sample_type);
}
