/*
 * Per-digit look-back status of the onesweep pass (Adinets & Merrill 2022),
 * the radix sort's counterpart of tile_status.cuh.
 *
 * Layout (the OpenCL port uses the same): one 64-bit word per (tile, digit),
 *   status[tile * RADIX_DIGITS + digit]
 * in scratch, cleared before each sort_onesweep launch. The top two bits
 * hold the flag (STATUS_EMPTY, STATUS_AGGREGATE: the tile's own count of the
 * digit; STATUS_PREFIX: the count of the digit in this tile and every tile
 * before it, plus the digit's global start), the low 62 bits the value. One
 * 64-bit volatile store publishes flag and value together, so a reader never
 * sees one without the other and no fence is needed. A word goes from EMPTY
 * to AGGREGATE to PREFIX; either non-empty value is valid when seen.
 */
#ifndef PRISM_BACKEND_CUDA_RADIX_STATUS_CUH
#define PRISM_BACKEND_CUDA_RADIX_STATUS_CUH

#include "tile_status.cuh"

namespace prism_cuda {

constexpr int DIGIT_STATUS_FLAG_SHIFT = 62;
constexpr unsigned long long DIGIT_STATUS_VALUE_MASK =
    (1ull << DIGIT_STATUS_FLAG_SHIFT) - 1ull;

/* Publishes value with flag (STATUS_AGGREGATE or STATUS_PREFIX) for
 * (tile, digit). */
__device__ __forceinline__ void publish_digit(unsigned long long *status,
                                              unsigned tile, int digit,
                                              unsigned flag,
                                              unsigned long long value) {
  volatile unsigned long long *word =
      status + size_t(tile) * RADIX_DIGITS + digit;
  *word = (static_cast<unsigned long long>(flag) << DIGIT_STATUS_FLAG_SHIFT) |
          value;
}

/*
 * Called by the thread of digit in the block of tile (> 0), after it has
 * published its aggregate. Walks back over the predecessors one at a time,
 * adding aggregates until it meets a prefix, and returns the sum: where the
 * digit's keys of this tile start in the output. Waits on an empty word
 * (pausing spin_ns between polls); tile 0 always publishes a prefix, and
 * tiles are drawn from a ticket, so every tile waited for is held by a
 * running block that publishes without waiting on this one.
 */
__device__ __forceinline__ unsigned long long
lookback_digit(const unsigned long long *status, unsigned tile, int digit,
               unsigned spin_ns) {
  const volatile unsigned long long *word =
      status + (size_t(tile) - 1) * RADIX_DIGITS + digit;
  unsigned long long exclusive = 0;
  for (;;) {
    const unsigned long long w = *word;
    const unsigned flag = unsigned(w >> DIGIT_STATUS_FLAG_SHIFT);
    if (flag == STATUS_EMPTY) {
      lookback_pause(spin_ns);
      continue;
    }
    exclusive += w & DIGIT_STATUS_VALUE_MASK;
    if (flag == STATUS_PREFIX)
      return exclusive;
    word -= RADIX_DIGITS;
  }
}

} // namespace prism_cuda

#endif /* PRISM_BACKEND_CUDA_RADIX_STATUS_CUH */
