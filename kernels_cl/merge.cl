/* SPDX-License-Identifier: MIT */
/*
 * merge.cl: out = the stable merge of a and b by key image, ties to a, by
 * the merge path (core/backend.h, prism__merge_args), as
 * backend_cuda/merge.cu does it, kernel for kernel (a work-group for a
 * block, local memory for shared memory).
 *
 * merge_partition: one work-item per tile boundary t (0 .. tiles) finds,
 * by binary search in global memory, how many of the first t * TILE
 * outputs come from a (merge_path below) and stores it in splits[t].
 * merge_tiles: work-group t owns outputs [t * TILE, (t + 1) * TILE): its
 * keys of a and of b, one contiguous stretch of each, are read into local
 * memory (work-item i taking elements i, i + PRISM_WG, ...), each
 * work-item finds by the same search within the tile where its
 * PRISM_ITEMS consecutive outputs start and merges them serially, the
 * merged keys (and, for pairs, each output's position in the tile's
 * inputs) go back through local memory and out striped; a pair's value is
 * read from a or b at that position as it is written, so values do not
 * pass through local memory.
 *
 * Options (besides common.cl's, which name the key's bits as T: U32 or
 * U64, and PRISM_OP_SUM; PRISM_WG is merge_tiles' work-group):
 *   PRISM_KEY_IMAGE     the key_order.h macro of the key type, e.g.
 *                       PRISM_KEY_IMAGE_F64.
 *   PRISM_VALUE_BYTES   0 (keys only), 4 or 8.
 *   PRISM_ITEMS         merge_tiles: outputs per work-item.
 *   PRISM_PARTITION_WG  merge_partition: work-items per work-group.
 *   PRISM_MERGE_LOCAL   merge_tiles: the __local bytes the host stated for
 *                       its shape (tuning.h's PRISM__CL_MERGE_LOCAL).
 *
 * Keys move as raw bits (f64 keys need no cl_khr_fp64) and are compared by
 * their image xor flip, flip being all ones for descending order (the
 * complemented image). Both kernels take a ulong base: the host launches
 * them in pieces (tuning.h, prism__cl_merge_policy.launch), so tile and
 * boundary numbers may pass 2^32. Traffic: every key read once and
 * written once, values the same; the partition reads about log2(na + nb)
 * keys per tile. Nothing depends on timing: the same bits every run.
 */

#ifndef PRISM_KEY_IMAGE
#error "merge.cl: no PRISM_KEY_IMAGE option given"
#endif
#ifndef PRISM_VALUE_BYTES
#define PRISM_VALUE_BYTES 0
#endif
#ifndef PRISM_ITEMS
#define PRISM_ITEMS 1
#endif
#ifndef PRISM_PARTITION_WG
#define PRISM_PARTITION_WG PRISM_WG
#endif

#define K T
#define TILE (PRISM_WG * PRISM_ITEMS)

/* Values move as opaque bits; V names a type even for keys only, so the
 * kernel's signature does not change (the host passes a NULL buffer). */
#if PRISM_VALUE_BYTES == 8
#define V ulong
#else
#define V uint
#endif

/* A key's place in the merge order. */
K merge_order(K key, K flip) {
  return (K)(PRISM_KEY_IMAGE(key) ^ flip);
}

/*
 * How many of the first d elements of the merge of a (na) and b (nb) come
 * from a: the least i in [max(0, d - nb), min(d, na)] with a[i] after
 * b[d - 1 - i] (the top of the range when there is none). A key of a
 * equal to one of b goes first. Defined for an address space and an index
 * type: the partition searches global memory with ulong positions, a tile
 * its local memory with int ones.
 */
#define PRISM_DEFINE_MERGE_PATH(NAME, SPACE, I)                                \
  I NAME(SPACE const K *a, I na, SPACE const K *b, I nb, I d, K flip) {        \
    I lo = d > nb ? d - nb : (I)0;                                             \
    I hi = d < na ? d : na;                                                    \
    while (lo < hi) {                                                          \
      const I mid = lo + (hi - lo) / 2;                                        \
      if (merge_order(a[mid], flip) <= merge_order(b[d - 1 - mid], flip))      \
        lo = mid + 1;                                                          \
      else                                                                     \
        hi = mid;                                                              \
    }                                                                          \
    return lo;                                                                 \
  }

PRISM_DEFINE_MERGE_PATH(merge_path_global, __global, ulong)
PRISM_DEFINE_MERGE_PATH(merge_path_local, __local, int)

/*
 * merge_partition: work-item base + g searches boundary t = base + g
 * (t <= tiles): splits[t] = the keys of a among the first min(t * TILE, n)
 * outputs. splits is the host's scratch (tiles + 1 ulongs).
 */
__kernel __attribute__((reqd_work_group_size(PRISM_PARTITION_WG, 1, 1))) void
merge_partition(PRISM_BUF(const K, a), ulong na, PRISM_BUF(const K, b),
                ulong nb, ulong tiles, ulong base, K flip,
                __global ulong *splits) {
  PRISM_BUF_AT(const K, a);
  PRISM_BUF_AT(const K, b);
  const ulong t = base + get_global_id(0);
  if (t > tiles)
    return;
  const ulong n = na + nb;
  const ulong d = t * TILE < n ? t * TILE : n;
  splits[t] = merge_path_global(a, na, b, nb, d, flip);
}

/* The end of tile's a stretch, a1 (splits[t + 1]), kept within
 * [max(a0, d1 - nb), min(a0 + count, na)] so that the tile's a stretch
 * [a0, a1) and b stretch [d0 - a0, d1 - a1) lie inside a and b and hold
 * count keys between them. For sorted inputs a1 is already there; for
 * unsorted ones the clamp keeps every access in bounds. */
ulong merge_clamp(ulong a1, ulong a0, ulong count, ulong d1, ulong na,
                  ulong nb) {
  const ulong lo = d1 > nb && d1 - nb > a0 ? d1 - nb : a0;
  const ulong hi = a0 + count < na ? a0 + count : na;
  return a1 < lo ? lo : a1 > hi ? hi : a1;
}

/* Unrolling a work-item's outputs keeps them in registers on GPUs; the
 * CPU policy's long runs would only grow the code. */
#if PRISM_ITEMS <= 32
#define MERGE_UNROLL _Pragma("unroll")
#else
#define MERGE_UNROLL
#endif

/*
 * merge_tiles: work-group base + g merges tile t = base + g, outputs
 * [d0, d1) = [t * TILE, min((t + 1) * TILE, n)), from a's keys
 * [splits[t], splits[t + 1]) and b's the rest (at most TILE of either, so
 * int counts). Local memory: the tile's input keys (a's, then b's), then
 * its merged keys over them, and for pairs each output's position among
 * the inputs. values_* are NULL buffers for keys only.
 */
__kernel __attribute__((reqd_work_group_size(PRISM_WG, 1, 1))) void
merge_tiles(PRISM_BUF(const K, a), PRISM_BUF(const K, b), ulong na, ulong nb,
            __global const ulong *splits, ulong base, K flip, PRISM_BUF(K, out),
            PRISM_BUF(const V, va), PRISM_BUF(const V, vb),
            PRISM_BUF(V, vout)) {
  PRISM_BUF_AT(const K, a);
  PRISM_BUF_AT(const K, b);
  PRISM_BUF_AT(K, out);
  PRISM_BUF_AT(const V, va);
  PRISM_BUF_AT(const V, vb);
  PRISM_BUF_AT(V, vout);
  __local K keys[TILE];
#if PRISM_VALUE_BYTES
  __local int from_at[TILE];
  PRISM_LOCAL_FITS(sizeof keys + sizeof from_at, PRISM_MERGE_LOCAL);
#else
  PRISM_LOCAL_FITS(sizeof keys, PRISM_MERGE_LOCAL);
  (void)va;
  (void)vb;
  (void)vout;
#endif
  const ulong n = na + nb;
  const ulong t = base + get_group_id(0);
  const ulong d0 = t * TILE;
  const ulong d1 = d0 + TILE < n ? d0 + TILE : n;
  /* For sorted inputs splits[t + 1] is where the tile's a stretch ends;
   * unsorted ones need not give one, so a1 is clamped to what keeps the
   * tile's a and b stretches inside a and b (merge_clamp). */
  const ulong a0 = splits[t];
  const ulong a1 = merge_clamp(splits[t + 1], a0, d1 - d0, d1, na, nb);
  const ulong b0 = d0 - a0;
  const int ca = (int)(a1 - a0), count = (int)(d1 - d0), cb = count - ca;
  const int tid = (int)get_local_id(0);

  for (int i = tid; i < count; i += PRISM_WG)
    keys[i] = i < ca ? a[a0 + i] : b[b0 + (i - ca)];
  barrier(CLK_LOCAL_MEM_FENCE);

  /* This work-item's outputs [d, d + PRISM_ITEMS) of the tile. */
  __local const K *sa = keys, *sb = keys + ca;
  const int d = tid * PRISM_ITEMS < count ? tid * PRISM_ITEMS : count;
  int ai = merge_path_local(sa, ca, sb, cb, d, flip);
  int bi = d - ai;
  K key[PRISM_ITEMS];
#if PRISM_VALUE_BYTES
  int from[PRISM_ITEMS];
#endif
  K ka = ai < ca ? sa[ai] : (K)0, kb = bi < cb ? sb[bi] : (K)0;
  MERGE_UNROLL
  for (int k = 0; k < PRISM_ITEMS; k++) {
    const int take_a =
        bi >= cb || (ai < ca && merge_order(ka, flip) <= merge_order(kb, flip));
    key[k] = take_a ? ka : kb;
#if PRISM_VALUE_BYTES
    from[k] = take_a ? ai : ca + bi;
#endif
    if (take_a) {
      ++ai;
      ka = ai < ca ? sa[ai] : ka;
    } else {
      ++bi;
      kb = bi < cb ? sb[bi] : kb;
    }
  }
  barrier(CLK_LOCAL_MEM_FENCE); /* every work-item's reads of the inputs */

  MERGE_UNROLL
  for (int k = 0; k < PRISM_ITEMS; k++)
    if (d + k < count) {
      keys[d + k] = key[k];
#if PRISM_VALUE_BYTES
      from_at[d + k] = from[k];
#endif
    }
  barrier(CLK_LOCAL_MEM_FENCE);

  for (int i = tid; i < count; i += PRISM_WG) {
    out[d0 + i] = keys[i];
#if PRISM_VALUE_BYTES
    const int f = from_at[i];
    vout[d0 + i] = f < ca ? va[a0 + f] : vb[b0 + (f - ca)];
#endif
  }
}
