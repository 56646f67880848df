/* SPDX-License-Identifier: MIT */
/*
 * The decoupled look-back's status words (Merrill & Garland 2016): one
 * definition for the CUDA kernels, the OpenCL kernels (embedded ahead of
 * them, as key_order.h is) and the host tests. Pure preprocessor, valid
 * C, C++ and OpenCL C; no types of its own.
 *
 * A tile of a single-pass primitive publishes what it knows as soon as it
 * knows it: first its own total (an aggregate), later the total of every
 * tile up to it (an inclusive prefix). A successor walks back over these
 * words until it meets a prefix. Each status is written with one aligned
 * 64-bit store that carries the flag together with its value, so a reader
 * never sees a flag without its value and no fence is needed between them.
 *
 * Flags, in the order a status goes through them:
 *   PRISM_LB_EMPTY      nothing published yet (scratch is cleared to 0);
 *   PRISM_LB_AGGREGATE  the tile's own total;
 *   PRISM_LB_PREFIX     the total of this tile and every tile before it.
 *
 * Two packings of a status into 64-bit words:
 * - Value words (scan, segmented scan: a value of any type). A value of B
 *   bytes takes PRISM_LB_WORDS(B) words; word h holds bits [32h, 32h + 32)
 *   of the value in its low half, and in its high half the valid bit
 *   PRISM_LB_VALID (segmented: with the pair's kind above it, shifted by
 *   PRISM_LB_KIND_SHIFT). Aggregates and prefixes live in two arrays, so a
 *   word is written once per launch and two valid words of one value
 *   belong together.
 * - Count words (compaction's kept counts, the radix sort's digit counts):
 *   one word, the flag in its top two bits (from PRISM_LB_FLAG_SHIFT), the
 *   count in the low PRISM_LB_FLAG_SHIFT bits (counts stay below 2^62).
 *   A word goes from EMPTY to AGGREGATE to PREFIX.
 *
 * Tiles are numbered by a ticket (an atomic counter in scratch, cleared
 * with the status words), not by work-group or block id, so every tile a
 * walk waits for belongs to a group that is already running.
 */
#ifndef PRISM_LOOKBACK_H
#define PRISM_LOOKBACK_H

#define PRISM_LB_EMPTY 0u
#define PRISM_LB_AGGREGATE 1u
#define PRISM_LB_PREFIX 2u

#if defined(__OPENCL_C_VERSION__)
#define PRISM_LB_U64(x) ((ulong)(x))
#else
#define PRISM_LB_U64(x) ((unsigned long long)(x))
#endif

/* Value words: PRISM_LB_WORDS(bytes) words per value; word h of a value
 * whose bits [32h, 32h + 32) are b, published with kind (0 outside the
 * segmented kernels). */
#define PRISM_LB_WORDS(value_bytes) ((value_bytes) / 4)
#define PRISM_LB_VALID 1u
#define PRISM_LB_KIND_SHIFT 1
#define PRISM_LB_VALUE_WORD(kind, b)                                           \
  ((PRISM_LB_U64(PRISM_LB_VALID | (kind) << PRISM_LB_KIND_SHIFT) << 32) |      \
   PRISM_LB_U64(b))
#define PRISM_LB_WORD_VALID(w) ((((w) >> 32) & PRISM_LB_VALID) != 0)
/* Without a kind (scan), any set bit of the high half means published. */
#define PRISM_LB_WORD_PUBLISHED(w) (((w) >> 32) != 0)
#define PRISM_LB_WORD_KIND(w) ((unsigned)((w) >> (32 + PRISM_LB_KIND_SHIFT)))
#define PRISM_LB_WORD_BITS(w) ((unsigned)(w))

/* Count words: flag and count (< 2^62) in one word. */
#define PRISM_LB_FLAG_SHIFT 62
#define PRISM_LB_COUNT_MASK                                                    \
  ((PRISM_LB_U64(1) << PRISM_LB_FLAG_SHIFT) - PRISM_LB_U64(1))
#define PRISM_LB_COUNT_WORD(flag, count)                                       \
  ((PRISM_LB_U64(flag) << PRISM_LB_FLAG_SHIFT) | PRISM_LB_U64(count))
#define PRISM_LB_COUNT_FLAG(w) ((unsigned)((w) >> PRISM_LB_FLAG_SHIFT))
#define PRISM_LB_COUNT_OF(w) ((w)&PRISM_LB_COUNT_MASK)

#endif /* PRISM_LOOKBACK_H */
