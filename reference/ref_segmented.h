/* SPDX-License-Identifier: MIT */
/*
 * Segmented scans and the segmented reduce: the reference, built on
 * ref_scan (ref_scan.h) one segment at a time, so float sums carry the
 * same per-segment tolerances; the serial C versions prism-bench times,
 * built on ref_serial_scan and ref_serial_reduce the same way; and its
 * checks. Offsets are read as prism.h defines them: segment s is good when
 * 0 <= offsets[s] <= offsets[s + 1] <= n. Head flags: segment starts at 0
 * and at every set flag after it.
 */
#ifndef PRISM_REFERENCE_SEGMENTED_H
#define PRISM_REFERENCE_SEGMENTED_H

#include "prism.h"

#include <stddef.h>
#include <stdint.h>

/** Whether flag i of an array of flag_type is non-zero (all its bits). */
int ref_flag_set(prism_type flag_type, const void *flags, size_t i);

/** Whether segment s is good; if so its bounds go to *lo and *hi. */
int ref_segment_good(prism_type offset_type, const void *offsets, size_t s,
                     size_t n, size_t *lo, size_t *hi);

/** The first bad segment, or SIZE_MAX when every one is good. */
size_t ref_first_bad(prism_type offset_type, const void *offsets,
                     size_t num_segments, size_t n);

/** Segmented scan by head flags into out (all n elements). tol as for
 * ref_scan, per segment (n doubles, or NULL). */
void ref_segmented_scan_flags(prism_type type, prism_op op,
                              prism_scan_kind kind, const void *in,
                              prism_type flag_type, const void *flags,
                              void *out, size_t n, double *tol);

/** Segmented scan by offsets, each good segment scanned over its own
 * bounds; out keeps its contents elsewhere. This is prism.h's definition
 * for offsets that do not decrease. tol as above (0 where untouched). */
void ref_segmented_scan_segments(prism_type type, prism_op op,
                                 prism_scan_kind kind, const void *in,
                                 void *out, size_t n, prism_type offset_type,
                                 const void *offsets, size_t num_segments,
                                 double *tol);

/** Segmented scan by offsets following prism.h's rule for any offsets
 * (starts and ends of the good segments; the nearest start wins unless an
 * end lies between). out keeps its contents where the rule says so. */
void ref_segmented_scan_offsets(prism_type type, prism_op op,
                                prism_scan_kind kind, const void *in, void *out,
                                size_t n, prism_type offset_type,
                                const void *offsets, size_t num_segments,
                                double *tol);

/** out[s] = the reduction of good segment s, the identity otherwise. tol:
 * num_segments doubles (or NULL) get each segment's float-sum tolerance. */
void ref_segmented_reduce(prism_type type, prism_op op, const void *in,
                          size_t n, prism_type offset_type, const void *offsets,
                          size_t num_segments, void *out, double *tol);

/** The serial C segmented scan by head flags (ref_serial_scan per
 * segment). */
void ref_serial_segmented_scan_flags(prism_type type, prism_op op,
                                     prism_scan_kind kind, const void *in,
                                     prism_type flag_type, const void *flags,
                                     void *out, size_t n);

/** The serial C segmented reduce by offsets (ref_serial_reduce per
 * segment; the identity for a bad one). */
void ref_serial_segmented_reduce(prism_type type, prism_op op, const void *in,
                                 size_t n, prism_type offset_type,
                                 const void *offsets, size_t num_segments,
                                 void *out);

/** prism-bench's checks, segment by segment, with ref_check_scan's and
 * ref_check_reduce's rules: 1, or 0 with the segment and the difference in
 * msg. */
int ref_check_segmented_scan(prism_type type, prism_op op, prism_scan_kind kind,
                             const void *in, prism_type flag_type,
                             const void *flags, size_t n, const void *got,
                             char *msg, size_t msg_size);
int ref_check_segmented_reduce(prism_type type, prism_op op, const void *in,
                               size_t n, prism_type offset_type,
                               const void *offsets, size_t num_segments,
                               const void *got, char *msg, size_t msg_size);

#endif /* PRISM_REFERENCE_SEGMENTED_H */
