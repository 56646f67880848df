/* SPDX-License-Identifier: MIT */
/*
 * segmented_sort.cl: segmented sort (core/backend.h,
 * prism__segmented_sort_args), as backend_cuda/segmented_sort.cu does it,
 * phase for phase. Every segment is sorted on its own, stably, by its keys'
 * image (key_order.h) xor flip restricted to bits [begin_bit, end_bit), by
 * the kernel that suits its length L:
 *
 * segsort_classify: one work-item per segment reads its two offsets and
 * decides. A bad segment (offsets decreasing, negative or past n) lowers
 * the first-bad word with atomic_min and does nothing else. A good one
 * goes to one class: none (L = 0, or L = 1 when nothing would move: in
 * place), SMALL (L <= the policy's small_max), BLOCK (L <= block_max) or DEVICE
 * (longer). Each class has a list in scratch of the spans (start, end) of
 * its segments, as ulong pairs; a work-item takes its place in its
 * work-group's share with a local atomic, and the work-group takes its
 * share of each list with one global atomic_add per class, so 10^6
 * segments make a few thousand global atomics, not 10^6. The spans are
 * the only thing the later kernels read of the segments: classify is the
 * only reader of the offsets and their types. Good segments never
 * overlap, so each list holds at most n / (its least length) spans; a
 * count past that means a bad segment (overlapping good ones), which the
 * host sees first: a work-item stores its span only below the list's
 * capacity.
 *
 * The host reads back, in one read, the first-bad word, the three counts
 * and the first DEVICE spans (the header; backend_opencl/segmented_sort.c
 * lays it out), and with a bad segment stops there: nothing is written.
 *
 * segsort_small: work-group g owns SMALL segment g, [start, end), of the
 * outputs. Its keys and their order (image xor flip, masked to the sort's
 * bits) go to local memory, each work-item holding the values of its own
 * items in registers; after the barrier each work-item ranks its items
 * (rank = the keys of lower order, plus the equal ones at lower index:
 * stable) and writes key and value to start + rank. Every load precedes
 * the barrier and every store follows it, so in place is safe. Traffic:
 * the segment's keys and values read once and written once, L^2 / wg
 * local reads a work-item.
 *
 * segsort_global lives in sort_single.cl (a work-group's whole radix sort
 * of one segment through global memory: single_sort, which
 * sort_single_block runs over a whole array). DEVICE segments go, one by
 * one, to the device-wide sort (backend_opencl/sort.c), or, when they are
 * enough to fill the device a work-group each, to segsort_global too (their
 * spans are the same ulong pairs).
 *
 * Options (besides common.cl's, which name the key's bits as T: U32 or
 * U64, and PRISM_OP_SUM; PRISM_WG is segsort_small's work-group):
 *   PRISM_KEY_IMAGE     the key_order.h macro of the key type.
 *   PRISM_VALUE_BYTES   0 (keys only), 4 or 8.
 *   PRISM_CLASSIFY_WG   segsort_classify's work-group.
 *   PRISM_SMALL_MAX     the longest SMALL segment.
 *   PRISM_SMALL_LOCAL   segsort_small's __local bytes as the host stated
 *                       them (tuning.h's PRISM__CL_SEGSORT_SMALL_LOCAL).
 * Offsets arrive as run-time arguments (offset_code OFFSET_SIGNED |
 * OFFSET_WIDE, read by common.cl's offset_load), so one program serves every
 * offset type. Keys move as raw bits (f64 keys need no cl_khr_fp64).
 */

#ifndef PRISM_KEY_IMAGE
#error "segmented_sort.cl: no PRISM_KEY_IMAGE option given"
#endif
#ifndef PRISM_VALUE_BYTES
#define PRISM_VALUE_BYTES 0
#endif
#ifndef PRISM_CLASSIFY_WG
#define PRISM_CLASSIFY_WG PRISM_WG
#endif

#define K T

/* Values move as opaque bits; V names a type even for keys only, so the
 * kernel's signature does not change (the host passes a NULL buffer). */
#if PRISM_VALUE_BYTES == 8
#define V ulong
#else
#define V uint
#endif

/* The classes with a list, in the order of their counts in the header;
 * CLASS_NONE has none. */
#define CLASS_SMALL 0u
#define CLASS_BLOCK 1u
#define CLASS_DEVICE 2u
#define CLASSES 3u
#define CLASS_NONE 3u

/* The header's words: the first bad segment (all ones: none), then the
 * class counts. */
#define HEADER_BAD 0
#define HEADER_COUNTS 1

/* The class of a good segment of length len. */
uint segsort_class(ulong len, ulong small_max, ulong block_max,
                   uint copy_singles) {
  if (len == 0 || (len == 1 && !copy_singles))
    return CLASS_NONE;
  if (len <= small_max)
    return CLASS_SMALL;
  return len <= block_max ? CLASS_BLOCK : CLASS_DEVICE;
}

/*
 * segsort_classify: work-item base + g classifies segment s = base + g
 * (s < num_segments). scratch holds the header at header_at (HEADER_*
 * words, set by the host to no bad segment and zero counts) and the lists
 * at lists_at[c], cap[c] spans each (the host's capacities).
 * copy_singles: whether a segment of one key must still be written (not
 * in place).
 */
__kernel __attribute__((reqd_work_group_size(PRISM_CLASSIFY_WG, 1, 1))) void
segsort_classify(PRISM_BUF(const uchar, offsets), uint offset_code,
                 ulong num_segments, ulong n, ulong small_max, ulong block_max,
                 uint copy_singles, ulong base, __global uchar *scratch,
                 ulong header_at, ulong small_at, ulong small_cap,
                 ulong block_at, ulong block_cap, ulong device_at,
                 ulong device_cap) {
  PRISM_BUF_AT(const uchar, offsets);
  __local uint count[CLASSES], at[CLASSES];
  __global uint *header = SCRATCH(uint, scratch, header_at);
  const uint lid = get_local_id(0);
  for (uint c = lid; c < CLASSES; c += PRISM_CLASSIFY_WG)
    count[c] = 0;
  barrier(CLK_LOCAL_MEM_FENCE);

  const ulong s = base + get_global_id(0);
  uint cls = CLASS_NONE, slot = 0;
  ulong lo = 0, hi = 0;
  if (s < num_segments) {
    uint ok_lo, ok_hi;
    lo = offset_load(offsets, s, offset_code, n, &ok_lo);
    hi = offset_load(offsets, s + 1, offset_code, n, &ok_hi);
    if (ok_lo && ok_hi && lo <= hi)
      cls = segsort_class(hi - lo, small_max, block_max, copy_singles);
    else
      atomic_min(header + HEADER_BAD, (uint)s);
    if (cls != CLASS_NONE)
      slot = atomic_inc(&count[cls]);
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint c = lid; c < CLASSES; c += PRISM_CLASSIFY_WG)
    at[c] = count[c] ? atomic_add(header + HEADER_COUNTS + c, count[c]) : 0;
  barrier(CLK_LOCAL_MEM_FENCE);

  if (cls == CLASS_NONE)
    return;
  const ulong i = (ulong)at[cls] + slot;
  const ulong list_at = cls == CLASS_SMALL   ? small_at
                        : cls == CLASS_BLOCK ? block_at
                                             : device_at;
  const ulong cap = cls == CLASS_SMALL   ? small_cap
                    : cls == CLASS_BLOCK ? block_cap
                                         : device_cap;
  if (i < cap) {
    __global ulong *span = SCRATCH(ulong, scratch, list_at) + 2 * i;
    span[0] = lo;
    span[1] = hi;
  }
}

/* Items of a SMALL segment per work-item. */
#define SMALL_ITEMS ((PRISM_SMALL_MAX + PRISM_WG - 1) / PRISM_WG)

/*
 * segsort_small: work-group base + g sorts the SMALL segment at
 * spans[base + g] (scratch, from spans_at). The keys' order is their image
 * xor flip, and mask (the sort's bits [begin_bit, end_bit), as wide as a
 * key): comparing the masked images compares the bits that take part.
 * values_* are NULL buffers for keys only.
 */
__kernel __attribute__((reqd_work_group_size(PRISM_WG, 1, 1))) void
segsort_small(PRISM_BUF(const K, keys_in), PRISM_BUF(K, keys_out),
              PRISM_BUF(const V, values_in), PRISM_BUF(V, values_out),
              __global const uchar *scratch, ulong spans_at, ulong base, K flip,
              K mask) {
  PRISM_BUF_AT(const K, keys_in);
  PRISM_BUF_AT(K, keys_out);
  PRISM_BUF_AT(const V, values_in);
  PRISM_BUF_AT(V, values_out);
  __local K keys[PRISM_SMALL_MAX];
  __local K order[PRISM_SMALL_MAX];
  PRISM_LOCAL_FITS(sizeof keys + sizeof order, PRISM_SMALL_LOCAL);
#if PRISM_VALUE_BYTES
  V value[SMALL_ITEMS];
#else
  (void)values_in;
  (void)values_out;
#endif
  __global const ulong *span =
      SCRATCH(const ulong, scratch, spans_at) + 2 * (base + get_group_id(0));
  const ulong start = span[0];
  const uint count = (uint)(span[1] - start);
  const uint lid = get_local_id(0);

  for (uint k = 0; k < SMALL_ITEMS; k++) {
    const uint i = k * PRISM_WG + lid;
    if (i < count) {
      const K key = keys_in[start + i];
      keys[i] = key;
      order[i] = (PRISM_KEY_IMAGE(key) ^ flip) & mask;
#if PRISM_VALUE_BYTES
      value[k] = values_in[start + i];
#endif
    }
  }
  barrier(CLK_LOCAL_MEM_FENCE);

  for (uint k = 0; k < SMALL_ITEMS; k++) {
    const uint i = k * PRISM_WG + lid;
    if (i >= count)
      break;
    const K own = order[i];
    uint rank = 0;
    for (uint j = 0; j < count; j++) {
      const K other = order[j];
      rank += other < own || (other == own && j < i);
    }
    keys_out[start + rank] = keys[i];
#if PRISM_VALUE_BYTES
    values_out[start + rank] = value[k];
#endif
  }
}
