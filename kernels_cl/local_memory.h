/* SPDX-License-Identifier: MIT */
/*
 * The __local bytes of the tile kernels, as functions of their shapes:
 * stated once, for the host's fit (backend_opencl/tuning.c shrinks items
 * per work-item until the kernel fits the device) and for the kernels,
 * which are built with this header ahead of them and check at compile
 * time that what they declare fits what is stated here
 * (PRISM_LOCAL_FITS). A kernel whose __local arrays grow past its line
 * here fails to build everywhere, PoCL in CI included, rather than
 * passing the host's fit and failing on a device with less local memory.
 * A line may state more than a kernel declares (struct padding is
 * rounded up), never less. Pure preprocessor, valid C and OpenCL C.
 *
 * Arguments: wg work-items per work-group, items per work-item, t_bytes
 * the element (or key) size, window the look-back's PRISM_LB_WINDOW.
 */
#ifndef PRISM_LOCAL_MEMORY_H
#define PRISM_LOCAL_MEMORY_H

/* Fails to compile (a negative array size) when declared, the bytes a
 * kernel declares in __local, passes stated. */
#define PRISM_LOCAL_FITS(declared, stated)                                     \
  ((void)sizeof(char[(declared) <= (stated) ? 1 : -1]))

/* A look-back state of lookback.cl's walk: a flag and slot_bytes of
 * value per window slot, the run, the next tile, padding. */
#define PRISM_LOCAL_WINDOW(window, slot_bytes)                                 \
  (((window) + 1) * (4 + (slot_bytes)) + 16)

/* scan_lookback (scan.cl): the tile, the work-group scan's buffer, the
 * look-back (T values), the ticket. scan_single_block declares less. */
#define PRISM_LOCAL_SCAN(wg, items, t_bytes, window)                           \
  ((wg) * (items) * (t_bytes) + 2 * (wg) * (t_bytes) +                         \
   PRISM_LOCAL_WINDOW(window, t_bytes) + 4)

/* Bits a sort tile ranks per round (sort_keys.cl): 2^this 16-bit counters
 * per work-item. */
#define PRISM_SORT_RANK_BITS 4

/* sort_onesweep (sort_onesweep.cl): the tile's keys and 16-bit source
 * indexes, the rank counters, the scan buffer of 64-bit counts, the digit
 * starts, ends and destinations, the ticket. sort_single_block declares
 * less. */
#define PRISM_LOCAL_SORT(wg, items, key_bytes, radix)                          \
  ((wg) * (items) * ((key_bytes) + 2) + (1 << PRISM_SORT_RANK_BITS) * (wg)*2 + \
   2 * (wg)*8 + (radix) * (4 + 4 + 8) + 4)

/* select_lookback (select_lookback.cl): the tile and its selection bytes, the
 * scan buffer of 64-bit counts, the look-back (counts), the ticket, the
 * element before the tile. select_single_block declares less. */
#define PRISM_LOCAL_SELECT(wg, items, t_bytes, window)                         \
  ((wg) * (items) * ((t_bytes) + 1) + 2 * (wg)*8 +                             \
   PRISM_LOCAL_WINDOW(window, 8) + 4 + (t_bytes))

/* seg_scan_lookback (segmented_lookback.cl): the tile and its marks, the
 * segmented scan's values and kinds, the look-back (pairs), the ticket.
 * seg_scan_single_block declares less. */
#define PRISM_LOCAL_SEG_SCAN(wg, items, t_bytes, window)                       \
  ((wg) * (items) * ((t_bytes) + 1) + 2 * (wg) * ((t_bytes) + 4) +             \
   PRISM_LOCAL_WINDOW(window, (t_bytes) + 4) + 4)

/* seg_reduce_tiles (segmented_lookback.cl), items the merge items: the elements
 * and the bound slots (as wide as T, two more), the splits, the segmented
 * scan's values and kinds, the look-back (pairs), the ticket and the
 * broken flag. */
#define PRISM_LOCAL_SEG_REDUCE(wg, items, t_bytes, window)                     \
  (((wg) * (items)*2 + 2) * (t_bytes) + ((wg) + 1) * 4 +                       \
   2 * (wg) * ((t_bytes) + 4) + PRISM_LOCAL_WINDOW(window, (t_bytes) + 4) + 8)

#endif /* PRISM_LOCAL_MEMORY_H */
