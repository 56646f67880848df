/* SPDX-License-Identifier: MIT */
/*
 * gather_scatter.cl: gather (out[i] = in[idx[i]]) and scatter (out[idx[i]] =
 * in[i]).
 *
 * Elements are moved as raw bits: the host builds with PRISM_TYPE_U32 or
 * PRISM_TYPE_U64 for 4- or 8-byte elements, so T is uint or ulong.
 * Options (besides common.cl's):
 *   PRISM_INDEX_{U32,I32,U64,I64}  the index type.
 *   PRISM_SCATTER  0: gather; 1: scatter.
 *   PRISM_CHECKED  1: also record the first position whose index is out of
 *                  range (move_first_bad then finishes the search).
 *
 * An index outside [0, bound) is never followed. Converted to ulong, a
 * negative signed index becomes at least 2^63, above any bound, so one
 * unsigned compare covers both ends.
 */

#if defined(PRISM_INDEX_U32)
#define IDX uint
#elif defined(PRISM_INDEX_I32)
#define IDX int
#elif defined(PRISM_INDEX_U64)
#define IDX ulong
#elif defined(PRISM_INDEX_I64)
#define IDX long
#else
#error "gather_scatter.cl: no PRISM_INDEX_* option given"
#endif

#ifndef PRISM_SCATTER
#define PRISM_SCATTER 0
#endif
#ifndef PRISM_CHECKED
#define PRISM_CHECKED 0
#endif

/* No record yet, in a first-bad slot. */
#define NO_BAD_SLOT UINT_MAX

/*
 * move_elements: one element per work-item, position base + global id, for
 * one launch of at most 2^32 work-items (the host's chunks), so positions
 * past 2^32 come from the ulong base. Neighbouring work-items read
 * neighbouring indices and the contiguous side (in for a scatter, out for
 * a gather), so those accesses coalesce; the indexed side is random.
 * Checked: the work-group's smallest bad local id meets in local memory
 * (a 32-bit atomic_min), then work-item 0 folds the group's position,
 * relative to base, into this launch's 32-bit slot in scratch with a global
 * atomic_min: one global atomic per group with a bad index, no 64-bit
 * atomics needed.
 */
__kernel __attribute__((reqd_work_group_size(PRISM_WG, 1, 1))) void
move_elements(PRISM_BUF(const T, in), PRISM_BUF(const IDX, idx),
              PRISM_BUF(T, out), ulong base, ulong n, ulong bound
#if PRISM_CHECKED
              ,
              __global uchar *scratch, ulong slot_offset
#endif
) {
  PRISM_BUF_AT(const T, in);
  PRISM_BUF_AT(const IDX, idx);
  PRISM_BUF_AT(T, out);
  const ulong i = base + get_global_id(0);
  int bad = 0;
  if (i < n) {
    const ulong j = (ulong)idx[i];
    if (j < bound) {
#if PRISM_SCATTER
      out[j] = in[i];
#else
      out[i] = in[j];
#endif
    } else {
      bad = 1;
    }
  }
#if PRISM_CHECKED
  __local uint group_min;
  const uint lid = get_local_id(0);
  if (lid == 0)
    group_min = NO_BAD_SLOT;
  barrier(CLK_LOCAL_MEM_FENCE);
  if (bad)
    atomic_min(&group_min, lid);
  barrier(CLK_LOCAL_MEM_FENCE);
  if (lid == 0 && group_min != NO_BAD_SLOT)
    atomic_min(SCRATCH(uint, scratch, slot_offset),
               (uint)(get_group_id(0) * PRISM_WG) + group_min);
#else
  (void)bad;
#endif
}

/*
 * move_first_bad: one work-item reads the launches' slots in order (a
 * handful: one per 2^30 positions) and writes the first bad position as a
 * ulong to result, ~0 when there is none.
 */
__kernel __attribute__((reqd_work_group_size(1, 1, 1))) void
move_first_bad(__global uchar *scratch, ulong slots_offset, uint count,
               ulong chunk, ulong result_offset) {
  __global const uint *slots = SCRATCH(uint, scratch, slots_offset);
  ulong first = ~(ulong)0;
  for (uint c = 0; c < count; c++)
    if (slots[c] != NO_BAD_SLOT) {
      first = c * chunk + slots[c];
      break;
    }
  *SCRATCH(ulong, scratch, result_offset) = first;
}
