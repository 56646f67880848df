/* SPDX-License-Identifier: MIT */
/*
 * lookback.cl: the decoupled look-back (Merrill & Garland 2016), written
 * once for the single-pass kernels: built ahead of scan.cl, select_lookback.cl,
 * segmented_lookback.cl and sort_onesweep.cl, after common.cl and
 * core/lookback.h, whose status words (flags, value words, count words) it
 * reads and writes.
 *
 * A tile publishes what it knows as soon as it knows it, then walks back
 * over its predecessors' statuses, combining aggregates until it meets a
 * prefix. Each status is one aligned 64-bit store carrying its flag with
 * its value, so a reader never sees a flag without its value and no fence
 * is needed: OpenCL 1.2's mem_fence orders accesses only as seen from the
 * work-group (NVIDIA compiles it to a CTA-scope barrier, and a flag-then-
 * value protocol built on it let other work-groups read stale values).
 * Aligned 64-bit stores are single transactions on NVIDIA GPUs and on
 * x86-64 CPUs (PoCL). Status words go through volatile accesses, which
 * NVIDIA keeps out of the SM's L1 (not coherent across SMs).
 *
 * Here:
 * - draw_tile: the tile a work-group owns, drawn from an atomic counter
 *   (draw order, not get_group_id, so every tile a walk waits for belongs
 *   to a group that is already running); lookback_init clears the counter
 *   and the status words before a pass.
 * - Value words (scan, segmented scan and reduce): lb_publish_value and
 *   lb_read_value over two arrays, aggregates and prefixes, of LB_WORDS
 *   words per tile.
 * - Count words (compaction, the radix sort's digits): lb_publish_count,
 *   lb_read_count.
 * - The walks: PRISM_DEFINE_LOOKBACK, a work-group reading
 *   PRISM_LB_WINDOW predecessors at once (scan, select, segmented), and
 *   lb_walk_counts, one work-item alone (the sort, whose tile walks RADIX
 *   digits at once, one per work-item: a group walk per digit would put
 *   the digits one after another behind barriers).
 */

#ifndef PRISM_LB_WINDOW
#define PRISM_LB_WINDOW 32
#endif

/* ---- the ticket --------------------------------------------------------- */

/* The tile id this work-group owns, from the counter at ticket; drawn by
 * work-item 0 into drawn. Every work-item calls it; ends with a barrier. */
uint draw_tile(__global uint *ticket, __local uint *drawn) {
  if (get_local_id(0) == 0)
    *drawn = atomic_inc(ticket);
  barrier(CLK_LOCAL_MEM_FENCE);
  return *drawn;
}

/* lookback_init: clear words 64-bit status words at status_offset and the
 * ticket (a uint) before a look-back pass; one work-item per word. */
__kernel __attribute__((reqd_work_group_size(PRISM_WG, 1, 1))) void
lookback_init(__global uchar *scratch, ulong ticket_offset, ulong status_offset,
              ulong words) {
  const ulong i = get_global_id(0);
  if (i < words)
    SCRATCH(ulong, scratch, status_offset)[i] = 0;
  if (i == 0)
    *SCRATCH(uint, scratch, ticket_offset) = 0;
}

/* ---- value words -------------------------------------------------------- */

#if T_BYTES == 4 || T_BYTES == 8
/* Value words per tile and array: T's bits, 32 to a word. */
#define LB_WORDS PRISM_LB_WORDS(T_BYTES)

/* A tile's status arrays: aggregate[t * LB_WORDS + h] holds word h of the
 * op of tile t's elements, prefix[...] that of tiles 0..t. Each word is
 * written once per pass, so two valid words of a value belong together. */
typedef struct lb_values {
  volatile __global ulong *aggregate;
  volatile __global ulong *prefix;
} lb_values;

/* The arrays at byte offsets of the scratch buffer. */
lb_values lb_values_at(__global uchar *scratch, ulong aggregate_offset,
                       ulong prefix_offset) {
  const lb_values s = {SCRATCH(volatile ulong, scratch, aggregate_offset),
                       SCRATCH(volatile ulong, scratch, prefix_offset)};
  return s;
}

/* One work-item publishes value with kind (0 outside the segmented
 * kernels) as tile's entry of array (s.aggregate or s.prefix): one 64-bit
 * store per word, each complete in itself, so their order does not
 * matter. */
void lb_publish_value(volatile __global ulong *array, uint tile, T value,
                      uint kind) {
  volatile __global ulong *words = array + (ulong)tile * LB_WORDS;
#if LB_WORDS == 1
  words[0] = PRISM_LB_VALUE_WORD(kind, as_uint(value));
#else
  const ulong bits = as_ulong(value);
  words[0] = PRISM_LB_VALUE_WORD(kind, (uint)bits);
  words[1] = PRISM_LB_VALUE_WORD(kind, (uint)(bits >> 32));
#endif
}

/* Whether loaded words hold a published value (all of them valid); the
 * value and its kind into *value, *kind either way. */
bool lb_unpack_value(const ulong words[LB_WORDS], T *value, uint *kind) {
  bool valid = true;
  for (uint h = 0; h < LB_WORDS; h++)
    valid &= PRISM_LB_WORD_VALID(words[h]);
#if LB_WORDS == 1
  *value = AS_T(PRISM_LB_WORD_BITS(words[0]));
#else
  *value = AS_T((ulong)PRISM_LB_WORD_BITS(words[1]) << 32 |
                PRISM_LB_WORD_BITS(words[0]));
#endif
  *kind = PRISM_LB_WORD_KIND(words[0]);
  return valid;
}

/* What tile p has published: PRISM_LB_PREFIX or PRISM_LB_AGGREGATE with
 * its value and kind, or PRISM_LB_EMPTY. Every word of both arrays is
 * loaded (volatile 64-bit loads) before any is looked at: one round of
 * loads. */
uint lb_read_value(lb_values s, ulong p, T *value, uint *kind) {
  ulong prefix_words[LB_WORDS], aggregate_words[LB_WORDS];
  for (uint h = 0; h < LB_WORDS; h++) {
    prefix_words[h] = s.prefix[p * LB_WORDS + h];
    aggregate_words[h] = s.aggregate[p * LB_WORDS + h];
  }
  if (lb_unpack_value(prefix_words, value, kind))
    return PRISM_LB_PREFIX;
  if (lb_unpack_value(aggregate_words, value, kind))
    return PRISM_LB_AGGREGATE;
  return PRISM_LB_EMPTY;
}
#endif

/* ---- count words -------------------------------------------------------- */

/* One work-item publishes count with flag as status[i]. */
void lb_publish_count(volatile __global ulong *status, ulong i, uint flag,
                      ulong count) {
  status[i] = PRISM_LB_COUNT_WORD(flag, count);
}

/* What status[i] holds: its flag, the count into *count. */
uint lb_read_count(volatile __global const ulong *status, ulong i,
                   ulong *count) {
  const ulong word = status[i];
  *count = PRISM_LB_COUNT_OF(word);
  return PRISM_LB_COUNT_FLAG(word);
}

/* ---- the walks ---------------------------------------------------------- */

/*
 * PRISM_DEFINE_LOOKBACK(NAME, V, STATE, STATUS, READ, PUT, GET, COMBINE,
 * NONE) defines
 *   V NAME(uint t, STATUS status, __local STATE *lb)
 * which returns the combination of every tile before t (t > 0): it walks
 * predecessors PRISM_LB_WINDOW at a time (work-item j reads tile next - j,
 * READ(status, p, &v) giving its flag and value), and work-item 0 folds
 * the window from the nearest predecessor outwards, stopping at the first
 * tile that has not published (the next round starts from it) or at a
 * prefix. Publishing (the tile's own status before, its prefix after) is
 * the caller's. The walk's state lives in local memory so every work-item
 * takes the same branches around the barriers; every work-item calls it,
 * and it ends with a barrier.
 *   V       the combined value, private (a scalar or a struct)
 *   STATE   a struct with uint flag[PRISM_LB_WINDOW], long next, and room
 *           for PRISM_LB_WINDOW + 1 values (the window and the run),
 *           stored by PUT(lb, j, v) and loaded by GET(lb, j)
 *   STATUS  what READ reads the statuses from (lb_values, or a pointer to
 *           count words)
 *   COMBINE(a, b): a before b; NONE: what nothing contributes.
 * (PUT and GET leave the layout to the kernel: the segmented kernels keep
 * a pair's value and kind in two arrays, since NVIDIA's OpenCL loses the
 * values of 8-byte pairs kept in local memory as structs.)
 */
#define PRISM_DEFINE_LOOKBACK(NAME, V, STATE, STATUS, READ, PUT, GET, COMBINE, \
                              NONE)                                            \
  V NAME(uint t, STATUS status, __local STATE *lb) {                           \
    const uint lid = get_local_id(0);                                          \
    if (lid == 0) {                                                            \
      PUT(lb, PRISM_LB_WINDOW, NONE);                                          \
      lb->next = (long)t - 1;                                                  \
    }                                                                          \
    barrier(CLK_LOCAL_MEM_FENCE);                                              \
    while (lb->next >= 0) {                                                    \
      const long nearest = lb->next;                                           \
      if (lid < PRISM_LB_WINDOW) {                                             \
        const long p = nearest - (long)lid;                                    \
        V v = NONE;                                                            \
        lb->flag[lid] = p >= 0 ? READ(status, (ulong)p, &v) : PRISM_LB_EMPTY;  \
        PUT(lb, lid, v);                                                       \
      }                                                                        \
      barrier(CLK_LOCAL_MEM_FENCE);                                            \
      if (lid == 0) {                                                          \
        V r = GET(lb, PRISM_LB_WINDOW);                                        \
        long resume = nearest - PRISM_LB_WINDOW;                               \
        for (uint j = 0; j < PRISM_LB_WINDOW; j++) {                           \
          const uint f = lb->flag[j];                                          \
          if (f == PRISM_LB_EMPTY) {                                           \
            resume = nearest - (long)j;                                        \
            break;                                                             \
          }                                                                    \
          r = COMBINE(GET(lb, j), r);                                          \
          if (f == PRISM_LB_PREFIX) {                                          \
            resume = -1;                                                       \
            break;                                                             \
          }                                                                    \
        }                                                                      \
        PUT(lb, PRISM_LB_WINDOW, r);                                           \
        lb->next = resume;                                                     \
      }                                                                        \
      barrier(CLK_LOCAL_MEM_FENCE);                                            \
    }                                                                          \
    return GET(lb, PRISM_LB_WINDOW);                                           \
  }

/* PUT and GET for a STATE that keeps its values in one array value[]. */
#define LB_PUT(lb, j, v) ((lb)->value[j] = (v))
#define LB_GET(lb, j) ((lb)->value[j])

/*
 * lb_walk_counts: one work-item's walk over count words
 * status[p * stride + index], p = t - 1, t - 2, ...: the sum of their
 * counts up to and including the first prefix, retrying a word until it
 * has been published (its tile is running: ticket order). Publishes
 * status[t * stride + index] as the prefix run + count; returns run (0
 * for t = 0, whose own word is its prefix already).
 */
ulong lb_walk_counts(volatile __global ulong *status, ulong stride, uint t,
                     ulong index, ulong count) {
  if (t == 0)
    return 0;
  ulong run = 0;
  for (long p = (long)t - 1; p >= 0;) {
    ulong c;
    const uint flag = lb_read_count(status, (ulong)p * stride + index, &c);
    if (flag == PRISM_LB_EMPTY)
      continue;
    run += c;
    if (flag == PRISM_LB_PREFIX)
      break;
    p--;
  }
  lb_publish_count(status, (ulong)t * stride + index, PRISM_LB_PREFIX,
                   run + count);
  return run;
}
