/* SPDX-License-Identifier: MIT */
/*
 * Top-k (core/backend.h, prism__topk_args): each row's k least (image,
 * column) composites, the image complemented for descending order, so the
 * chosen keys are the first k of a stable sort. Two paths:
 *
 * topk_rows: a block per row of at most TOPK_ROWS_THREADS x ITEMS keys.
 *   The images sit in registers, thread t holding columns [t x ITEMS,
 *   (t + 1) x ITEMS); a radix select 8 bits a pass from the top (a
 *   shared-memory histogram of the keys still matching the prefix, a
 *   block scan of its 256 counts, the digit where the running count
 *   reaches k) narrows to the threshold prefix, stopping as soon as the
 *   whole bucket is in. Keys below it are in, and of the equal ones the
 *   lowest columns (a block scan of the equal counts in column order); a
 *   second scan places the chosen in column order. Unsorted output goes
 *   out in that order; sorted output is a bitonic sort of the (image,
 *   column) pairs in shared memory first. Keys and values are read back
 *   from the row (in cache) by column as they are written.
 *
 * Longer rows, one after another: a radix select over the device on the
 * composite (image, column), 11-bit digits from the top (the column's
 * bits follow the image's), so the k-th is one element and the chosen set
 * is everything whose composite prefix is at most the threshold's.
 *   topk_init     sets the row's state (TopkState) and clears the bins;
 *   topk_pass     (a grid of TOPK_PASS_BLOCKS_PER_SM per SM striding over
 *                 the source: the row, or the candidates the pass before
 *                 kept) sends keys below the prefix to the chosen list
 *                 when it keeps candidates (or emits: a source read
 *                 without keeping stays the source, and its keys below
 *                 go out once, when it is left), and of the keys equal to
 *                 it histograms the next digit
 *                 (shared memory, then global 64-bit bins) and keeps them
 *                 as candidates when they fit the candidate buffers; in
 *                 the emit phase the equal ones join the chosen list too;
 *   topk_choose   (one block) scans the bins, extends the prefix by the
 *                 digit where the running count reaches what is still
 *                 wanted, and enters the emit phase when that whole bucket
 *                 is wanted (at the latest when every bit is fixed).
 * The host queues as many pass/choose pairs as there are digits, plus the
 * emit pass; the ones after the emit return at once. Nothing waits.
 * Then, sorted: the chosen (column, key) list sorts by composite: one
 * radix sort of (image << 32 | column) for 4-byte keys of at most 2^32
 * columns, else a stable sort by column and then by key (prism__cuda_sort
 * on pooled scratch below this call's own regions), and topk_finish
 * gathers keys and values by column into the caller's outputs.
 *
 * Traffic, a long row: the row read in pass 0 and again in pass 1 (which
 * keeps the candidates of the first digit's bucket), then only
 * candidates; the k chosen written once, sorted, and gathered.
 */
#include "block.cuh"
#include "cuda_internal.h"
#include "dispatch.cuh"
#include "ops.cuh"
#include "sort_keys.cuh"
#include "tuning.cuh"

#include <stdint.h>
#include <string.h>

namespace prism_cuda {
namespace {

/* x >> s for s up to the width of X (a full shift gives 0). */
template <class X> __host__ __device__ __forceinline__ X shr(X x, unsigned s) {
  return s >= sizeof(X) * 8 ? X(0) : X(x >> s);
}

/* A value word for a chosen key: its value from values_in, or its column
 * when values_in is NULL. */
template <class V, class C>
__device__ __forceinline__ V value_of(const V *values_in, size_t at, C col) {
  return values_in ? values_in[at] : V(col);
}

/* ---- one block per row ------------------------------------------------ */

template <class K, int THREADS, int ITEMS> struct RowsShared {
  static constexpr int TILE = THREADS * ITEMS;
  unsigned hist[256];
  unsigned slots[THREADS / WARP_THREADS];
  K sort_img[TILE];
  uint32_t sort_col[TILE];
  unsigned digit, before, count;
};

template <class KT, int THREADS, int ITEMS, class V>
__global__ void __launch_bounds__(THREADS)
    topk_rows(const typename KT::Bits *__restrict__ keys,
              const V *__restrict__ values_in, size_t rows, int cols, int k,
              typename KT::Bits flip, int sorted,
              typename KT::Bits *__restrict__ keys_out,
              V *__restrict__ values_out) {
  using K = typename KT::Bits;
  using Sum = Op<unsigned, PRISM_SUM>;
  constexpr unsigned W = sizeof(K) * 8;
  static_assert(THREADS >= 256, "one thread per histogram bin");
  static_assert((THREADS * ITEMS & (THREADS * ITEMS - 1)) == 0,
                "the bitonic sort's buffer is a power of two");
  __shared__ RowsShared<K, THREADS, ITEMS> sh;
  const int tid = threadIdx.x;
  const int first = tid * ITEMS;

  for (size_t row = blockIdx.x; row < rows; row += gridDim.x) {
    const K *rk = keys + row * size_t(cols);
    K img[ITEMS];
#pragma unroll
    for (int i = 0; i < ITEMS; ++i)
      img[i] = first + i < cols ? K(KT::image(rk[first + i]) ^ flip) : K(0);

    // The radix select: P the fixed top bits, s the bits below them.
    K prefix = 0;
    unsigned s = W, want = unsigned(k);
    do {
      s -= 8;
      for (int b = tid; b < 256; b += THREADS)
        sh.hist[b] = 0;
      __syncthreads();
#pragma unroll
      for (int i = 0; i < ITEMS; ++i)
        if (first + i < cols && shr(img[i], s + 8) == prefix)
          atomicAdd(&sh.hist[unsigned(img[i] >> s) & 255u], 1u);
      __syncthreads();
      const unsigned c = tid < 256 ? sh.hist[tid] : 0u;
      unsigned total;
      const unsigned before =
          block_exclusive_scan<Sum, THREADS>(c, sh.slots, &total);
      if (tid < 256 && before < want && want <= before + c) {
        sh.digit = unsigned(tid);
        sh.before = before;
        sh.count = c;
      }
      __syncthreads();
      const unsigned d = sh.digit, count = sh.count;
      want -= sh.before;
      prefix = K(K(prefix << 8) | K(d));
      __syncthreads(); // sh.slots and sh.digit are reused
      if (count == want)
        break;
    } while (s > 0);

    // Below the prefix: in; equal: the want lowest columns.
    unsigned eq_count = 0;
#pragma unroll
    for (int i = 0; i < ITEMS; ++i)
      eq_count += first + i < cols && (img[i] >> s) == prefix;
    unsigned total;
    unsigned eq_rank =
        block_exclusive_scan<Sum, THREADS>(eq_count, sh.slots, &total);
    bool take[ITEMS];
    unsigned taken = 0;
#pragma unroll
    for (int i = 0; i < ITEMS; ++i) {
      const bool valid = first + i < cols;
      const K top = img[i] >> s;
      const bool eq = valid && top == prefix;
      take[i] = (valid && top < prefix) || (eq && eq_rank < want);
      eq_rank += eq;
      taken += take[i];
    }
    __syncthreads(); // sh.slots is reused
    unsigned pos = block_exclusive_scan<Sum, THREADS>(taken, sh.slots, &total);

    const size_t out0 = row * size_t(k);
    if (!sorted) {
#pragma unroll
      for (int i = 0; i < ITEMS; ++i)
        if (take[i]) {
          const int col = first + i;
          if (keys_out)
            keys_out[out0 + pos] = rk[col];
          if constexpr (HAS_VALUES<V>)
            if (values_out)
              values_out[out0 + pos] =
                  value_of(values_in, row * size_t(cols) + col, col);
          ++pos;
        }
      __syncthreads(); // sh.slots is reused by the next row
      continue;
    }

    // Sorted: the chosen (image, column) pairs, padded to a power of two
    // with pairs after every real one, bitonic-sorted ascending.
    int m = 1;
    while (m < k)
      m <<= 1;
#pragma unroll
    for (int i = 0; i < ITEMS; ++i)
      if (take[i]) {
        sh.sort_img[pos] = img[i];
        sh.sort_col[pos] = uint32_t(first + i);
        ++pos;
      }
    for (int p = k + tid; p < m; p += THREADS) {
      sh.sort_img[p] = K(~K(0));
      sh.sort_col[p] = 0xffffffffu;
    }
    __syncthreads();
    for (int size = 2; size <= m; size <<= 1)
      for (int stride = size >> 1; stride > 0; stride >>= 1) {
        for (int t = tid; t < m / 2; t += THREADS) {
          const int lo = 2 * t - (t & (stride - 1)), hi = lo + stride;
          const K a = sh.sort_img[lo], b = sh.sort_img[hi];
          const uint32_t ca = sh.sort_col[lo], cb = sh.sort_col[hi];
          const bool after = a > b || (a == b && ca > cb);
          if (after == ((lo & size) == 0)) {
            sh.sort_img[lo] = b;
            sh.sort_img[hi] = a;
            sh.sort_col[lo] = cb;
            sh.sort_col[hi] = ca;
          }
        }
        __syncthreads();
      }
    for (int r = tid; r < k; r += THREADS) {
      const uint32_t col = sh.sort_col[r];
      if (keys_out)
        keys_out[out0 + r] = rk[col];
      if constexpr (HAS_VALUES<V>)
        if (values_out)
          values_out[out0 + r] =
              value_of(values_in, row * size_t(cols) + col, col);
    }
    __syncthreads(); // the sort buffers are reused by the next row
  }
}

/* ---- long rows: the select over the device ---------------------------- */

constexpr int TOPK_BINS = 1 << TOPK_DIGIT_BITS;

/* A row's select, in scratch. prefix_img / prefix_col: the fixed top bits
 * of the composite (img_left, col_left: the bits below them still open);
 * want: how many of the keys equal to the prefix are still wanted;
 * chosen: the chosen list's length; cand[b]: candidate buffer b's length;
 * source: what the next pass reads (0 the row, 1 + b candidate buffer b);
 * write: whether it keeps candidates; phase: 0 selecting, 1 the next pass
 * emits the bucket, 2 done. */
struct TopkState {
  unsigned long long prefix_img, prefix_col;
  unsigned long long want, chosen, cand[2];
  unsigned img_left, col_left, source, write, phase;
};

/* Which buffer a pass reading source writes its candidates to. */
__host__ __device__ __forceinline__ unsigned cand_dest(unsigned source) {
  return source == 1 ? 1u : 0u;
}

__global__ void topk_init(TopkState *st, unsigned long long *bins,
                          unsigned long long want, unsigned img_bits,
                          unsigned col_bits) {
  for (int b = threadIdx.x; b < TOPK_BINS; b += blockDim.x)
    bins[b] = 0;
  if (threadIdx.x == 0) {
    TopkState s;
    memset(&s, 0, sizeof s);
    s.want = want;
    s.img_left = img_bits;
    s.col_left = col_bits;
    *st = s;
  }
}

/* Append the lanes' flagged (key, column) to list at *count, one atomic a
 * warp. Every lane of the warp calls it. */
template <class K, class C>
__device__ __forceinline__ void warp_append(bool flag, K key, C col, K *keys,
                                            C *cols, unsigned long long *count,
                                            unsigned long long cap) {
  const unsigned mask = __ballot_sync(FULL_MASK, flag);
  if (!mask)
    return;
  const int lane = lane_id();
  unsigned long long base = 0;
  if (lane == __ffs(mask) - 1)
    base = atomicAdd(count, (unsigned long long)__popc(mask));
  base = __shfl_sync(FULL_MASK, base, __ffs(mask) - 1);
  const unsigned long long at = base + __popc(mask & ((1u << lane) - 1u));
  if (flag && at < cap) {
    keys[at] = key;
    cols[at] = col;
  }
}

template <class KT, class C>
__global__ void __launch_bounds__(TOPK_PASS_THREADS, TOPK_PASS_BLOCKS_PER_SM)
    topk_pass(const typename KT::Bits *__restrict__ row, size_t cols,
              typename KT::Bits flip, TopkState *st, unsigned long long *bins,
              typename KT::Bits *cand_keys0, C *cand_cols0,
              typename KT::Bits *cand_keys1, C *cand_cols1, size_t cap,
              typename KT::Bits *chosen_keys, C *chosen_cols, size_t k) {
  using K = typename KT::Bits;
  constexpr int THREADS = TOPK_PASS_THREADS, ITEMS = TOPK_PASS_ITEMS;
  __shared__ unsigned hist[TOPK_BINS];
  const TopkState s = *st;
  if (s.phase == 2)
    return;
  const bool emit = s.phase == 1;
  const K *src_keys = s.source == 0   ? row
                      : s.source == 1 ? cand_keys0
                                      : cand_keys1;
  const C *src_cols = s.source == 1 ? cand_cols0 : cand_cols1;
  const size_t count = s.source == 0 ? cols : size_t(s.cand[s.source - 1]);
  const bool keep = s.write && !emit;
  // A source read without keeping candidates stays the source, so its keys
  // below the prefix go out once: in the pass that leaves it (which keeps
  // candidates) or in the emit pass, never in every pass.
  const bool out_below = emit || keep;
  const unsigned dest = cand_dest(s.source);
  K *dst_keys = dest == 0 ? cand_keys0 : cand_keys1;
  C *dst_cols = dest == 0 ? cand_cols0 : cand_cols1;
  // The next digit: the image's bits while some are open, then the
  // column's.
  const bool on_img = s.img_left > 0;
  const unsigned open = on_img ? s.img_left : s.col_left;
  const unsigned width = open < TOPK_DIGIT_BITS ? open : TOPK_DIGIT_BITS;
  const unsigned shift = open - width;
  const unsigned long long dmask = (1ull << width) - 1ull;

  if (!emit)
    for (int b = threadIdx.x; b < TOPK_BINS; b += THREADS)
      hist[b] = 0;
  __syncthreads();

  const size_t tile = size_t(THREADS) * ITEMS;
  for (size_t base = size_t(blockIdx.x) * tile; base < count;
       base += size_t(gridDim.x) * tile) {
    K key[ITEMS];
    C col[ITEMS];
#pragma unroll
    for (int i = 0; i < ITEMS; ++i) {
      const size_t at = base + size_t(i) * THREADS + threadIdx.x;
      key[i] = at < count ? src_keys[at] : K(0);
      col[i] = at < count ? (s.source == 0 ? C(at) : src_cols[at]) : C(0);
    }
#pragma unroll
    for (int i = 0; i < ITEMS; ++i) {
      const size_t at = base + size_t(i) * THREADS + threadIdx.x;
      const K img = K(KT::image(key[i]) ^ flip);
      const unsigned long long ti = shr<unsigned long long>(img, s.img_left);
      const unsigned long long tc = shr<unsigned long long>(col[i], s.col_left);
      const bool in = at < count;
      const bool below = in && (ti < s.prefix_img ||
                                (ti == s.prefix_img && tc < s.prefix_col));
      const bool equal = in && ti == s.prefix_img && tc == s.prefix_col;
      warp_append((below && out_below) || (equal && emit), key[i], col[i],
                  chosen_keys, chosen_cols, &st->chosen, k);
      if (!emit) {
        if (equal) {
          const unsigned long long field =
              on_img ? (unsigned long long)img : (unsigned long long)col[i];
          atomicAdd(&hist[unsigned((field >> shift) & dmask)], 1u);
        }
        if (keep)
          warp_append(equal, key[i], col[i], dst_keys, dst_cols,
                      &st->cand[dest], cap);
      }
    }
  }
  if (emit)
    return;
  __syncthreads();
  for (int b = threadIdx.x; b < TOPK_BINS; b += THREADS)
    if (hist[b])
      atomicAdd(&bins[b], (unsigned long long)hist[b]);
}

template <int THREADS>
__global__ void __launch_bounds__(THREADS)
    topk_choose(TopkState *st, unsigned long long *bins, size_t cap) {
  using Sum = Op<unsigned long long, PRISM_SUM>;
  constexpr int PER = TOPK_BINS / THREADS;
  __shared__ unsigned long long slots[THREADS / WARP_THREADS];
  const TopkState s = *st;
  if (s.phase != 0) {
    if (threadIdx.x == 0)
      st->phase = 2;
    return;
  }
  unsigned long long c[PER], sum = 0;
#pragma unroll
  for (int i = 0; i < PER; ++i) {
    c[i] = bins[threadIdx.x * PER + i];
    bins[threadIdx.x * PER + i] = 0;
    sum += c[i];
  }
  unsigned long long total;
  unsigned long long before =
      block_exclusive_scan<Sum, THREADS>(sum, slots, &total);
#pragma unroll
  for (int i = 0; i < PER; ++i) {
    if (before < s.want && s.want <= before + c[i]) {
      const unsigned d = unsigned(threadIdx.x * PER + i);
      TopkState n = s;
      n.want = s.want - before;
      const bool on_img = s.img_left > 0;
      const unsigned open = on_img ? s.img_left : s.col_left;
      const unsigned width = open < TOPK_DIGIT_BITS ? open : TOPK_DIGIT_BITS;
      if (on_img) {
        n.prefix_img = (s.prefix_img << width) | d;
        n.img_left = open - width;
      } else {
        n.prefix_col = (s.prefix_col << width) | d;
        n.col_left = open - width;
      }
      if (s.write)
        n.source = cand_dest(s.source) + 1;
      n.write = c[i] <= cap;
      n.cand[cand_dest(n.source)] = 0;
      n.phase = c[i] == n.want ? 1u : 0u;
      *st = n;
    }
    before += c[i];
  }
}

/* The chosen list as composites image << 32 | column (4-byte keys, 32-bit
 * columns), for one radix sort. */
template <class KT>
__global__ void topk_compose(const typename KT::Bits *__restrict__ keys,
                             const uint32_t *__restrict__ cols,
                             typename KT::Bits flip, size_t k,
                             unsigned long long *composite) {
  const size_t r = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (r < k)
    composite[r] =
        ((unsigned long long)(KT::image(keys[r]) ^ flip) << 32) | cols[r];
}

/* Out: rank r's key and value, gathered from the row by its column (from
 * the chosen list, or the low half of a sorted composite). */
template <class K, class C, class V>
__global__ void
topk_finish(const K *__restrict__ row, const V *__restrict__ row_values,
            size_t k, const C *__restrict__ chosen_cols,
            const unsigned long long *__restrict__ composite,
            K *__restrict__ keys_out, V *__restrict__ values_out) {
  const size_t r = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (r >= k)
    return;
  const C col = composite ? C(composite[r] & 0xffffffffull) : chosen_cols[r];
  if (keys_out)
    keys_out[r] = row[col];
  if constexpr (HAS_VALUES<V>)
    if (values_out)
      values_out[r] = value_of(row_values, size_t(col), col);
}

/* Bits of a column below cols: 0 for one column. */
inline unsigned col_bits(size_t cols) {
  unsigned b = 0;
  while (b < 64 && (cols - 1) >> b)
    ++b;
  return b;
}

inline prism__mem scratch_mem(void *base, size_t offset) {
  prism__mem m;
  m.native = base;
  m.offset = offset;
  return m;
}

template <class KT, class C, class V>
prism_status run_long(prism_context *ctx, prism__cuda_ctx *c,
                      const prism__topk_args *args) {
  using K = typename KT::Bits;
  const size_t cols = args->cols, k = args->k;
  const K flip = args->descending ? K(~K(0)) : K(0);
  const unsigned img_bits = unsigned(sizeof(K) * 8);
  const unsigned cbits = col_bits(cols);
  size_t cap = cols / TOPK_CAND_DIVISOR;
  if (cap < TOPK_CAND_MIN)
    cap = TOPK_CAND_MIN;
  if (cap > cols)
    cap = cols;
  const bool composite = sizeof(K) == 4 && sizeof(C) == 4;

  // The sorts of the chosen list, when asked: their scratch goes below
  // this call's regions.
  prism__sort_args by_comp, by_col, by_key;
  memset(&by_comp, 0, sizeof by_comp);
  memset(&by_col, 0, sizeof by_col);
  memset(&by_key, 0, sizeof by_key);
  size_t sort_bytes = 0;
  if (args->sorted) {
    if (composite) {
      by_comp.key_type = PRISM_U64;
      by_comp.n = k;
      by_comp.begin_bit = 0;
      by_comp.end_bit = 64;
      sort_bytes = prism__cuda_sort_scratch_bytes(ctx, &by_comp);
    } else {
      by_col.key_type = sizeof(C) == 4 ? PRISM_U32 : PRISM_U64;
      by_col.value_size = sizeof(K);
      by_col.n = k;
      by_col.begin_bit = 0;
      by_col.end_bit = cbits > 0 ? cbits : 1;
      by_key.key_type = args->key_type;
      by_key.value_size = sizeof(C);
      by_key.n = k;
      by_key.descending = args->descending;
      by_key.begin_bit = 0;
      by_key.end_bit = img_bits;
      const size_t a = prism__cuda_sort_scratch_bytes(ctx, &by_col);
      const size_t b = prism__cuda_sort_scratch_bytes(ctx, &by_key);
      sort_bytes = a > b ? a : b;
    }
  }
  // Regions above the sort's: state, bins, two candidate buffers, the
  // chosen list, the composites.
  size_t at = prism__cuda_align(sort_bytes);
  const size_t o_state = at;
  at += prism__cuda_align(sizeof(TopkState));
  const size_t o_bins = at;
  at += prism__cuda_align(TOPK_BINS * sizeof(unsigned long long));
  size_t o_ck[2], o_cc[2];
  for (int b = 0; b < 2; b++) {
    o_ck[b] = at;
    at += prism__cuda_align(cap * sizeof(K));
    o_cc[b] = at;
    at += prism__cuda_align(cap * sizeof(C));
  }
  const size_t o_keys = at;
  at += prism__cuda_align(k * sizeof(K));
  const size_t o_cols = at;
  at += prism__cuda_align(k * sizeof(C));
  const size_t o_comp = at;
  if (args->sorted && composite)
    at += prism__cuda_align(k * sizeof(unsigned long long));
  void *scratch = NULL;
  prism_status st = prism__scratch(ctx, at, &scratch);
  if (st != PRISM_OK)
    return st;
  char *base = static_cast<char *>(scratch);
  TopkState *state = reinterpret_cast<TopkState *>(base + o_state);
  unsigned long long *bins =
      reinterpret_cast<unsigned long long *>(base + o_bins);
  K *ck0 = reinterpret_cast<K *>(base + o_ck[0]);
  K *ck1 = reinterpret_cast<K *>(base + o_ck[1]);
  C *cc0 = reinterpret_cast<C *>(base + o_cc[0]);
  C *cc1 = reinterpret_cast<C *>(base + o_cc[1]);
  K *chosen_keys = reinterpret_cast<K *>(base + o_keys);
  C *chosen_cols = reinterpret_cast<C *>(base + o_cols);
  unsigned long long *comp =
      reinterpret_cast<unsigned long long *>(base + o_comp);

  const int per_sm = TOPK_PASS_BLOCKS_PER_SM;
  const size_t tile = size_t(TOPK_PASS_THREADS) * TOPK_PASS_ITEMS;
  size_t grid = size_t(c->sm_count) * size_t(per_sm);
  if (grid > (cols + tile - 1) / tile)
    grid = (cols + tile - 1) / tile;
  const unsigned passes = (img_bits + TOPK_DIGIT_BITS - 1) / TOPK_DIGIT_BITS +
                          (cbits + TOPK_DIGIT_BITS - 1) / TOPK_DIGIT_BITS + 1;
  const unsigned fblocks = unsigned((k + 255) / 256);
  const K *keys = mem_ptr<const K>(args->keys_in);
  const V *values = HAS_VALUES<V> && args->values_in.native
                        ? mem_ptr<const V>(args->values_in)
                        : NULL;
  K *keys_out = args->keys_out.native ? mem_ptr<K>(args->keys_out) : NULL;
  V *values_out = HAS_VALUES<V> && args->values_out.native
                      ? mem_ptr<V>(args->values_out)
                      : NULL;

  for (size_t r = 0; r < args->rows; r++) {
    const K *row = keys + r * cols;
    topk_init<<<1, 256, 0, c->stream>>>(state, bins, k, img_bits, cbits);
    if ((st = prism__cuda_check_launch(ctx, "topk_init")) != PRISM_OK)
      return st;
    for (unsigned p = 0; p < passes; p++) {
      topk_pass<KT, C><<<unsigned(grid), TOPK_PASS_THREADS, 0, c->stream>>>(
          row, cols, flip, state, bins, ck0, cc0, ck1, cc1, cap, chosen_keys,
          chosen_cols, k);
      if ((st = prism__cuda_check_launch(ctx, "topk_pass")) != PRISM_OK)
        return st;
      topk_choose<TOPK_CHOOSE_THREADS>
          <<<1, TOPK_CHOOSE_THREADS, 0, c->stream>>>(state, bins, cap);
      if ((st = prism__cuda_check_launch(ctx, "topk_choose")) != PRISM_OK)
        return st;
    }
    const unsigned long long *sorted_comp = NULL;
    if (args->sorted && composite) {
      topk_compose<KT><<<fblocks, 256, 0, c->stream>>>(
          chosen_keys, reinterpret_cast<const uint32_t *>(chosen_cols), flip, k,
          comp);
      if ((st = prism__cuda_check_launch(ctx, "topk_compose")) != PRISM_OK)
        return st;
      by_comp.keys_in = by_comp.keys_out = scratch_mem(scratch, o_comp);
      if ((st = prism__cuda_sort(ctx, &by_comp)) != PRISM_OK)
        return st;
      sorted_comp = comp;
    } else if (args->sorted) {
      by_col.keys_in = by_col.keys_out = scratch_mem(scratch, o_cols);
      by_col.values_in = by_col.values_out = scratch_mem(scratch, o_keys);
      by_key.keys_in = by_key.keys_out = scratch_mem(scratch, o_keys);
      by_key.values_in = by_key.values_out = scratch_mem(scratch, o_cols);
      if ((st = prism__cuda_sort(ctx, &by_col)) != PRISM_OK ||
          (st = prism__cuda_sort(ctx, &by_key)) != PRISM_OK)
        return st;
    }
    topk_finish<K, C, V><<<fblocks, 256, 0, c->stream>>>(
        row, values ? values + r * cols : NULL, k, chosen_cols, sorted_comp,
        keys_out ? keys_out + r * k : NULL,
        values_out ? values_out + r * k : NULL);
    if ((st = prism__cuda_check_launch(ctx, "topk_finish")) != PRISM_OK)
      return st;
  }
  return PRISM_OK;
}

template <class KT, int THREADS, int ITEMS, class V>
prism_status launch_rows(prism_context *ctx, prism__cuda_ctx *c,
                         const prism__topk_args *args) {
  using K = typename KT::Bits;
  const K flip = args->descending ? K(~K(0)) : K(0);
  const size_t grid = args->rows < size_t(INT32_MAX) ? args->rows : INT32_MAX;
  topk_rows<KT, THREADS, ITEMS, V><<<unsigned(grid), THREADS, 0, c->stream>>>(
      mem_ptr<const K>(args->keys_in),
      HAS_VALUES<V> && args->values_in.native
          ? mem_ptr<const V>(args->values_in)
          : NULL,
      args->rows, int(args->cols), int(args->k), flip, args->sorted,
      args->keys_out.native ? mem_ptr<K>(args->keys_out) : NULL,
      HAS_VALUES<V> && args->values_out.native ? mem_ptr<V>(args->values_out)
                                               : NULL);
  return prism__cuda_check_launch(ctx, "topk_rows");
}

template <class KT, class V>
prism_status run_topk(prism_context *ctx, prism__cuda_ctx *c,
                      const prism__topk_args *args) {
  using K = typename KT::Bits;
  constexpr int T = TOPK_ROWS_THREADS;
  constexpr int SMALL = sizeof(K) == 4 ? TOPK_ROWS_ITEMS_4 : TOPK_ROWS_ITEMS_8;
  constexpr int LARGE =
      sizeof(K) == 4 ? TOPK_ROWS_WIDE_ITEMS_4 : TOPK_ROWS_WIDE_ITEMS_8;
  if (args->cols <= size_t(T) * SMALL)
    return launch_rows<KT, T, SMALL, V>(ctx, c, args);
  if (args->cols <= size_t(T) * LARGE)
    return launch_rows<KT, T, LARGE, V>(ctx, c, args);
  if (args->cols <= size_t(UINT32_MAX) + 1)
    return run_long<KT, uint32_t, V>(ctx, c, args);
  return run_long<KT, uint64_t, V>(ctx, c, args);
}

} // namespace
} // namespace prism_cuda

extern "C" prism_status prism__cuda_topk(prism_context *ctx,
                                         const prism__topk_args *args) {
  prism__cuda_ctx *c = NULL;
  prism_status st = prism__cuda_enter(ctx, &c);
  if (st != PRISM_OK)
    return st;
  return prism_cuda::dispatch_sort(
      ctx, args->key_type, args->value_size, [&](auto tag) {
        using Tag = decltype(tag);
        using KT = prism_cuda::SortKey<Tag::key_type>;
        using V = typename prism_cuda::SortValue<Tag::value_bytes>::type;
        return prism_cuda::run_topk<KT, V>(ctx, c, args);
      });
}
