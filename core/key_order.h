/* SPDX-License-Identifier: MIT */
/*
 * The order-preserving map from a sort key's bits to an unsigned integer of
 * the same width (its "image"): keys compare as their images compare. One
 * definition for everything that sorts or checks sorts: the CUDA kernels
 * include it, the OpenCL backend embeds it ahead of its kernels, and the
 * tests' serial reference uses it. Pure preprocessor, no types of its own.
 *
 * - unsigned keys: the bits themselves;
 * - signed keys: the sign bit flipped (two's complement order);
 * - floats: IEEE-754 total order. A set sign bit flips every bit (so larger
 *   magnitudes come first among negatives), a clear one sets the sign bit:
 *   -NaN < -inf < ... < -0.0 < +0.0 < ... < +inf < +NaN, NaNs by payload.
 *
 * Descending order uses the complement of the image, which keeps an LSD
 * radix sort stable in both directions.
 */
#ifndef PRISM_KEY_ORDER_H
#define PRISM_KEY_ORDER_H

#if defined(__OPENCL_C_VERSION__)
#define PRISM_KEY_TOP32 0x80000000u
#define PRISM_KEY_TOP64 0x8000000000000000ul
#define PRISM_KEY_ONES64 0xfffffffffffffffful
#else
#define PRISM_KEY_TOP32 0x80000000u
#define PRISM_KEY_TOP64 0x8000000000000000ull
#define PRISM_KEY_ONES64 0xffffffffffffffffull
#endif

/* b: the key's bits as a 32- or 64-bit unsigned integer. */
#define PRISM_KEY_IMAGE_U32(b) (b)
#define PRISM_KEY_IMAGE_I32(b) ((b) ^ PRISM_KEY_TOP32)
#define PRISM_KEY_IMAGE_F32(b)                                                 \
  ((b) ^ (((b)&PRISM_KEY_TOP32) ? 0xffffffffu : PRISM_KEY_TOP32))
#define PRISM_KEY_IMAGE_U64(b) (b)
#define PRISM_KEY_IMAGE_I64(b) ((b) ^ PRISM_KEY_TOP64)
#define PRISM_KEY_IMAGE_F64(b)                                                 \
  ((b) ^ (((b)&PRISM_KEY_TOP64) ? PRISM_KEY_ONES64 : PRISM_KEY_TOP64))

/* The digit of an image: bits [shift, shift + width) of it. */
#define PRISM_KEY_DIGIT(image, shift, width)                                   \
  (((image) >> (shift)) & ((1u << (width)) - 1u))

#endif /* PRISM_KEY_ORDER_H */
