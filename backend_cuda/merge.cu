/* SPDX-License-Identifier: MIT */
/*
 * Merge (core/backend.h, prism__merge_args): out = the stable merge of a
 * and b by key image, ties to a, by the merge path.
 *
 * merge_partition: one thread per tile boundary t (0 .. tiles) finds, by
 * binary search in global memory, how many of the first t * TILE outputs
 * come from a (merge_path below) and stores it in scratch.
 * merge_tiles: block t owns outputs [t * TILE, (t + 1) * TILE): its keys of
 * a and of b, one contiguous stretch of each, are read into shared memory
 * (coalesced, thread i taking elements i, i + THREADS, ...), each thread
 * finds by the same search within the tile where its ITEMS consecutive
 * outputs start and merges them serially, the merged keys (and, for
 * pairs, each output's position in the tile's inputs) go back through
 * shared memory and out coalesced; a pair's value is read from a or b at
 * that position as it is written, so values do not pass through shared
 * memory. Keys move as raw bits and are compared by their image
 * (key_order.h), complemented for descending order.
 * Traffic: every key read once and written once, values the same; the
 * partition reads about log2(na + nb) keys per tile.
 */
#include "cuda_internal.h"
#include "dispatch.cuh"
#include "sort_keys.cuh"
#include "tuning.cuh"

#include <stdint.h>

namespace prism_cuda {
namespace {

/* Keys per thread: by the key's width. */
template <class K> __host__ __device__ constexpr int merge_items() {
  return sizeof(K) == 4 ? MERGE_ITEMS_4 : MERGE_ITEMS_8;
}

template <class K> __host__ __device__ constexpr int merge_tile() {
  return MERGE_THREADS * merge_items<K>();
}

/* A key's place in the merge order. */
template <class KT> struct MergeOrder {
  using K = typename KT::Bits;
  K flip;
  __device__ __forceinline__ K operator()(K key) const {
    return K(KT::image(key) ^ flip);
  }
};

/* How many of the first d elements of the merge of a (na) and b (nb) come
 * from a: the least i in [max(0, d - nb), min(d, na)] with a[i] after
 * b[d - 1 - i] (the top of the range when there is none). A key of a
 * equal to one of b goes first. */
template <class KT, class I>
__device__ __forceinline__ I merge_path(const typename KT::Bits *a, I na,
                                        const typename KT::Bits *b, I nb, I d,
                                        MergeOrder<KT> order) {
  I lo = d > nb ? d - nb : I(0);
  I hi = d < na ? d : na;
  while (lo < hi) {
    const I mid = lo + (hi - lo) / 2;
    if (order(a[mid]) <= order(b[d - 1 - mid]))
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

/* A tile's end split a1, given its start split a0 (a0 keys of a before
 * the tile) and its count outputs ending at diagonal d1: within [max(a0,
 * d1 - nb), min(a0 + count, na)], so the tile reads a[a0, a1) and b[d0 -
 * a0, d1 - a1), both inside their runs. For sorted inputs a1 is already
 * there; for unsorted ones the clamp keeps every access in bounds. */
__device__ __forceinline__ size_t merge_clamp(size_t a1, size_t a0,
                                              size_t count, size_t d1,
                                              size_t na, size_t nb) {
  const size_t lo = d1 > nb && d1 - nb > a0 ? d1 - nb : a0;
  const size_t hi = a0 + count < na ? a0 + count : na;
  return a1 < lo ? lo : a1 > hi ? hi : a1;
}

template <class KT>
__global__ void __launch_bounds__(MERGE_PARTITION_THREADS)
    merge_partition(const typename KT::Bits *__restrict__ a, size_t na,
                    const typename KT::Bits *__restrict__ b, size_t nb,
                    size_t tiles, MergeOrder<KT> order,
                    unsigned long long *splits) {
  using K = typename KT::Bits;
  const size_t t = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (t > tiles)
    return;
  const size_t n = na + nb;
  const size_t tile = size_t(merge_tile<K>());
  const size_t d = t * tile < n ? t * tile : n;
  splits[t] = merge_path<KT, size_t>(a, na, b, nb, d, order);
}

/* The tile's shared memory: its input keys, then the merged keys, and
 * for pairs each output's position among the inputs. */
template <class K, int VB> struct MergeShared {
  static constexpr int TILE = merge_tile<K>();
  K keys[TILE];
  int from[VB ? TILE : 1];
};

template <class KT, int VB>
__global__ void __launch_bounds__(MERGE_THREADS)
    merge_tiles(const typename KT::Bits *__restrict__ a,
                const typename KT::Bits *__restrict__ b, size_t na, size_t nb,
                const unsigned long long *__restrict__ splits,
                MergeOrder<KT> order, typename KT::Bits *__restrict__ out,
                const typename SortValue<VB>::type *__restrict__ va,
                const typename SortValue<VB>::type *__restrict__ vb,
                typename SortValue<VB>::type *__restrict__ vout) {
  using K = typename KT::Bits;
  constexpr int ITEMS = merge_items<K>();
  constexpr int TILE = merge_tile<K>();
  __shared__ MergeShared<K, VB> sh;
  const size_t n = na + nb;
  const size_t t = blockIdx.x;
  const size_t d0 = t * size_t(TILE);
  const size_t d1 = d0 + TILE < n ? d0 + TILE : n;
  // Sorted inputs give splits that rise by at most the tile; unsorted
  // ones need not, so a1 is clamped to what keeps the tile's a and b
  // stretches inside a and b (a non-empty range; see merge_clamp).
  const size_t a0 = splits[t];
  const size_t a1 = merge_clamp(splits[t + 1], a0, d1 - d0, d1, na, nb);
  const size_t b0 = d0 - a0;
  const int ca = int(a1 - a0), count = int(d1 - d0), cb = count - ca;
  const int tid = threadIdx.x;

  for (int i = tid; i < count; i += MERGE_THREADS)
    sh.keys[i] = i < ca ? a[a0 + i] : b[b0 + (i - ca)];
  __syncthreads();

  // This thread's outputs [d, d + ITEMS) of the tile.
  const K *sa = sh.keys, *sb = sh.keys + ca;
  const int d = tid * ITEMS < count ? tid * ITEMS : count;
  int ai = merge_path<KT, int>(sa, ca, sb, cb, d, order);
  int bi = d - ai;
  K key[ITEMS];
  int from[ITEMS];
  K ka = ai < ca ? sa[ai] : K(0), kb = bi < cb ? sb[bi] : K(0);
#pragma unroll
  for (int k = 0; k < ITEMS; ++k) {
    const bool take_a = bi >= cb || (ai < ca && order(ka) <= order(kb));
    key[k] = take_a ? ka : kb;
    from[k] = take_a ? ai : ca + bi;
    if (take_a) {
      ++ai;
      ka = ai < ca ? sa[ai] : ka;
    } else {
      ++bi;
      kb = bi < cb ? sb[bi] : kb;
    }
  }
  __syncthreads(); // every thread's reads of the inputs are done

#pragma unroll
  for (int k = 0; k < ITEMS; ++k)
    if (d + k < count) {
      sh.keys[d + k] = key[k];
      if constexpr (VB != 0)
        sh.from[d + k] = from[k];
    }
  __syncthreads();

  for (int i = tid; i < count; i += MERGE_THREADS) {
    out[d0 + i] = sh.keys[i];
    if constexpr (VB != 0) {
      const int f = sh.from[i];
      vout[d0 + i] = f < ca ? va[a0 + f] : vb[b0 + (f - ca)];
    }
  }
}

template <class Tag>
prism_status run_merge(prism_context *ctx, prism__cuda_ctx *c,
                       const prism__merge_args *args) {
  using KT = SortKey<Tag::key_type>;
  using K = typename KT::Bits;
  constexpr int VB = Tag::value_bytes;
  using V = typename SortValue<VB>::type;
  const size_t n = args->na + args->nb;
  const size_t tiles = (n + merge_tile<K>() - 1) / merge_tile<K>();
  if (tiles > size_t(INT32_MAX))
    return prism__fail(ctx, PRISM_INVALID_ARGUMENT,
                       "prism_merge: %zu outputs need more tiles than one "
                       "launch holds",
                       n);
  void *scratch = NULL;
  prism_status st =
      prism__scratch(ctx, (tiles + 1) * sizeof(unsigned long long), &scratch);
  if (st != PRISM_OK)
    return st;
  unsigned long long *splits = static_cast<unsigned long long *>(scratch);
  const MergeOrder<KT> order{args->descending ? K(~K(0)) : K(0)};
  const K *a = mem_ptr<const K>(args->keys_a);
  const K *b = mem_ptr<const K>(args->keys_b);

  const size_t pblocks =
      (tiles + 1 + MERGE_PARTITION_THREADS - 1) / MERGE_PARTITION_THREADS;
  merge_partition<KT>
      <<<unsigned(pblocks), MERGE_PARTITION_THREADS, 0, c->stream>>>(
          a, args->na, b, args->nb, tiles, order, splits);
  if ((st = prism__cuda_check_launch(ctx, "merge_partition")) != PRISM_OK)
    return st;
  merge_tiles<KT, VB><<<unsigned(tiles), MERGE_THREADS, 0, c->stream>>>(
      a, b, args->na, args->nb, splits, order, mem_ptr<K>(args->keys_out),
      mem_ptr<const V>(args->values_a), mem_ptr<const V>(args->values_b),
      mem_ptr<V>(args->values_out));
  return prism__cuda_check_launch(ctx, "merge_tiles");
}

} // namespace
} // namespace prism_cuda

extern "C" prism_status prism__cuda_merge(prism_context *ctx,
                                          const prism__merge_args *args) {
  prism__cuda_ctx *c = NULL;
  prism_status st = prism__cuda_enter(ctx, &c);
  if (st != PRISM_OK)
    return st;
  return prism_cuda::dispatch_sort(
      ctx, args->key_type, args->value_size, [&](auto tag) {
        return prism_cuda::run_merge<decltype(tag)>(ctx, c, args);
      });
}
