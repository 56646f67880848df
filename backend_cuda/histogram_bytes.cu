/* SPDX-License-Identifier: MIT */
/*
 * histogram_bytes: 1-byte samples, whatever the bins: shared counters per
 * byte value, so counting does no bin arithmetic; the 256 values are
 * mapped to their bins once per block, at the end. Before an atomic a
 * warp whose vectors all hold one byte value adds them with one atomic,
 * and a thread whose vector does, with one (count_bytes): skewed input
 * costs fewer atomics than uniform input, not more.
 */
#include "histogram.cuh"

namespace prism_cuda {
namespace {

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
 * global atomics per block. samples must be 16-byte aligned (split_head).
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

prism_status run_bytes(prism_context *ctx, prism__cuda_ctx *c,
                       const prism__histogram_args *args,
                       const BinMap<uint8_t> &map) {
  using P = HistPolicy<uint8_t>;
  unsigned replicas = P::BLOCK_THREADS / WARP_THREADS;
  if (replicas > unsigned(HIST_MAX_REPLICAS))
    replicas = HIST_MAX_REPLICAS;
  const size_t wave = size_t(c->sm_count) * HIST_BLOCKS_PER_SM;
  const size_t grid = prism__histogram_slices(wave, args->n, P::TILE_ITEMS);
  const uint8_t *samples = NULL;
  size_t n = 0;
  prism_status st = split_head(ctx, c, args, map, &samples, &n);
  if (st != PRISM_OK)
    return st;
  histogram_bytes<<<unsigned(grid), P::BLOCK_THREADS, 0, c->stream>>>(
      samples, n, map, replicas, prism__cuda_ptr(args->counts),
      args->counter_type == PRISM_U64);
  return prism__cuda_check_launch(ctx, "histogram_bytes");
}

} // namespace

prism_status run_histogram_bytes(prism_context *ctx, prism__cuda_ctx *c,
                                 const prism__histogram_args *args) {
  BinMap<uint8_t> map;
  prism_status st = stage_call(ctx, c, args, map);
  if (st != PRISM_OK)
    return st;
  return run_bytes(ctx, c, args, map);
}

} // namespace prism_cuda
