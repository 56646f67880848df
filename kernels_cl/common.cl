/* SPDX-License-Identifier: MIT */
/*
 * common.cl: prepended to every prism kernel source.
 *
 * The host specialises each program with -D options:
 *   PRISM_TYPE_{I32,U32,F32,I64,U64,F64,U8}  the element type as kernels
 *       see it (U8: bytes, for histograms and compaction only).
 *       Signed SUMs arrive as U32/U64: unsigned arithmetic wraps, which is
 *       the documented two's-complement result, where signed overflow would
 *       be undefined.
 *   PRISM_OP_{SUM,MIN,MAX}                the operator.
 *   PRISM_WG     work-items per work-group (a power of two; kernels require
 *                exactly this size so compilers can size local memory).
 *   PRISM_VEC    elements per vector load (1, 2, 4, 8 or 16).
 * Kernel files add their own (PRISM_ITEMS, PRISM_CHUNKED, ...).
 */

#if defined(PRISM_TYPE_F64)
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#endif

#define PRISM_CAT_(a, b) a##b
#define PRISM_CAT(a, b) PRISM_CAT_(a, b)

/* T, and what goes with it: T_BYTES (sizeof(T), usable in #if), AS_T
 * (as_int, as_double, ...: bits of T_BYTES reinterpreted as a T), the
 * lowest and highest values. */
#if defined(PRISM_TYPE_I32)
#define T int
#define T_BYTES 4
#define AS_T as_int
#define T_LOWEST INT_MIN
#define T_HIGHEST INT_MAX
#elif defined(PRISM_TYPE_U32)
#define T uint
#define T_BYTES 4
#define AS_T as_uint
#define T_LOWEST 0u
#define T_HIGHEST UINT_MAX
#elif defined(PRISM_TYPE_F32)
#define T float
#define T_BYTES 4
#define AS_T as_float
#define T_LOWEST (-INFINITY)
#define T_HIGHEST INFINITY
#define T_IS_FLOAT 1
#elif defined(PRISM_TYPE_I64)
#define T long
#define T_BYTES 8
#define AS_T as_long
#define T_LOWEST LONG_MIN
#define T_HIGHEST LONG_MAX
#elif defined(PRISM_TYPE_U64)
#define T ulong
#define T_BYTES 8
#define AS_T as_ulong
#define T_LOWEST 0ul
#define T_HIGHEST ULONG_MAX
#elif defined(PRISM_TYPE_F64)
#define T double
#define T_BYTES 8
#define AS_T as_double
#define T_LOWEST ((double)-INFINITY)
#define T_HIGHEST ((double)INFINITY)
#define T_IS_FLOAT 1
#elif defined(PRISM_TYPE_U8)
#define T uchar
#define T_BYTES 1
#define AS_T as_uchar
#define T_LOWEST ((uchar)0)
#define T_HIGHEST UCHAR_MAX
#else
#error "prism: no PRISM_TYPE_* option given"
#endif

#ifndef T_IS_FLOAT
#define T_IS_FLOAT 0
#endif

/* The identity: what a missing element contributes. Float SUM uses +0.0,
 * the value the API documents for an exclusive scan's first element. */
#if defined(PRISM_OP_SUM)
#define IDENTITY ((T)0)
#elif defined(PRISM_OP_MIN)
#define IDENTITY ((T)T_HIGHEST)
#elif defined(PRISM_OP_MAX)
#define IDENTITY ((T)T_LOWEST)
#else
#error "prism: no PRISM_OP_* option given"
#endif

#ifndef PRISM_VEC
#define PRISM_VEC 1
#endif
#if PRISM_VEC == 1
#define VT T
#else
#define VT PRISM_CAT(T, PRISM_VEC)
#endif

/*
 * No function here takes or returns a vector by value, builtins included:
 * a 512-bit vector (float16, double8, ...) passed that way changes the
 * x86-64 calling convention with AVX-512, and on CPUs without it clang
 * warns so (-Wpsabi), which PoCL prints on the user's stderr. So the
 * operator is written with operators (?: for min and max, x != x for NaN,
 * the sign bit through as_int/as_long), and the vector helpers are macros
 * or take vectors by address.
 */
#if T_IS_FLOAT
/* T's bits as signed integers of its width, for the sign bit: AS_SBITS on
 * a scalar, AS_VSBITS on a vector of PRISM_VEC lanes. */
#if T_BYTES == 4
#define T_SBITS int
#else
#define T_SBITS long
#endif
#define AS_SBITS PRISM_CAT(as_, T_SBITS)
#define AS_VSBITS PRISM_CAT(as_, PRISM_CAT(T_SBITS, PRISM_VEC))
#endif

/*
 * The operator, as one expression that works on scalars and on vectors
 * alike (OpenCL C's ?: selects per component when the condition is a
 * vector); AS_BITS is AS_SBITS or AS_VSBITS. Float MIN/MAX: a NaN operand
 * wins (a + b is then NaN), and among equal operands the one with the sign
 * bit is the smaller, so -0.0 < +0.0. Together these make min and max exact
 * and independent of order. Integer MIN/MAX pick as OpenCL C's min and max.
 */
#if defined(PRISM_OP_SUM)
#define PRISM_OP_EXPR(a, b, AS_BITS) ((a) + (b))
#elif T_IS_FLOAT
#define PRISM_FLOAT_PICK(a, b, a_wins)                                         \
  ((((a) != (a)) | ((b) != (b))) ? (a) + (b) : (a_wins) ? (a) : (b))
#if defined(PRISM_OP_MIN)
#define PRISM_OP_EXPR(a, b, AS_BITS)                                           \
  PRISM_FLOAT_PICK(a, b, ((a) < (b)) | (((a) == (b)) & (AS_BITS(a) < 0)))
#else
#define PRISM_OP_EXPR(a, b, AS_BITS)                                           \
  PRISM_FLOAT_PICK(a, b, ((a) > (b)) | (((a) == (b)) & (AS_BITS(b) < 0)))
#endif
#elif defined(PRISM_OP_MIN)
#define PRISM_OP_EXPR(a, b, AS_BITS) ((b) < (a) ? (b) : (a))
#else
#define PRISM_OP_EXPR(a, b, AS_BITS) ((a) < (b) ? (b) : (a))
#endif

T op(T a, T b) {
  return PRISM_OP_EXPR(a, b, AS_SBITS);
}

/* opv(a, b): op on vectors. reduce_lanes(v): the lanes of v folded with
 * op, lowest lane leftmost. Macros that evaluate their arguments more than
 * once: pass variables. */
#if PRISM_VEC > 1
#define opv(a, b) PRISM_OP_EXPR(a, b, AS_VSBITS)
#define FOLD_LANES_4(x, v, i, j, k, l)                                         \
  op(op(op(op(x, (v).i), (v).j), (v).k), (v).l)
#define REDUCE_LANES_2(v) op((v).s0, (v).s1)
#define REDUCE_LANES_4(v) op(op(REDUCE_LANES_2(v), (v).s2), (v).s3)
#define REDUCE_LANES_8(v) FOLD_LANES_4(REDUCE_LANES_4(v), v, s4, s5, s6, s7)
#define REDUCE_LANES_16(v)                                                     \
  FOLD_LANES_4(FOLD_LANES_4(REDUCE_LANES_8(v), v, s8, s9, sa, sb), v, sc, sd,  \
               se, sf)
#define reduce_lanes(v) PRISM_CAT(REDUCE_LANES_, PRISM_VEC)(v)
#else
#define opv op
#define reduce_lanes(v) (v)
#endif

/*
 * Vector v of p, through a cast pointer, so the address must be aligned for
 * VT: vector indexes count whole vectors from p, and p is aligned when the
 * caller's view starts on a multiple of the vector size (buffers
 * themselves start at CL_DEVICE_MEM_BASE_ADDR_ALIGN). The host checks each
 * view's offset and builds with PRISM_VEC 1 where it is not
 * (prism__cl_vec_fits: reduce.c, scan.c, histogram.c).
 */
#define LOAD_VEC(p, v) (((__global const VT *)(p))[v])
#define STORE_VEC(p, v, x) (((__global VT *)(p))[v] = (x))

/*
 * A caller's buffer as a kernel parameter: its cl_mem and the byte offset
 * at which the argument starts in it (a view; 0 for a whole buffer), two
 * argument slots that the host fills from one prism__mem
 * (PRISM__CL_MEM, opencl_internal.h). Sub-buffers cannot serve for views:
 * their origin must be a multiple of CL_DEVICE_MEM_BASE_ADDR_ALIGN.
 * PRISM_BUF(type, name) goes in the parameter list, PRISM_BUF_AT(type,
 * name) at the top of the kernel makes the pointer name. Programs are
 * built without PRISM_VIEWS first, and PRISM_BUF_AT then ignores the
 * offset: every offset is 0 there (prism__cl_launch takes the PRISM_VIEWS
 * build for a launch with any other), and whole buffers run the code of a
 * plain pointer parameter (on NVIDIA's compiler the addition alone cost
 * the GPU histogram 8%: docs/results/h200-views.txt). The offset is a
 * multiple of the element size (core checks it), so name is aligned for
 * type. Scratch regions keep their own (buffer, offset) pairs: SCRATCH.
 */
#define PRISM_BUF(type, name) __global type *name##_base, ulong name##_offset
#ifdef PRISM_VIEWS
#define PRISM_BUF_AT(type, name)                                               \
  __global type *name =                                                        \
      (__global type *)((__global const uchar *)(name##_base) + name##_offset)
#else
#define PRISM_BUF_AT(type, name) __global type *name = name##_base
#endif
/* A parameter that takes a caller's buffer or a scratch region (a sort's
 * passes, reduce's partials and result, compaction's count): the offset
 * always counts. The host passes it with PRISM__CL_MEM_ANY. */
#define PRISM_BUF_AT_ANY(type, name)                                           \
  __global type *name =                                                        \
      (__global type *)((__global const uchar *)(name##_base) + name##_offset)

/* A typed view of the scratch buffer at a byte offset the host chose. */
#define SCRATCH(type, base, byte_offset)                                       \
  ((__global type *)((base) + (byte_offset)))

/*
 * Fold [first, end) of p with op, one vector at a time, in a private
 * accumulator: the registers are where a work-item's partial lives until the
 * work-group meets. step is 1 for a contiguous chunk, the global size for a
 * grid-stride loop. Vector indexes.
 */
T fold_vectors(__global const T *p, ulong first, ulong end, ulong step) {
  VT acc = (VT)(IDENTITY);
  for (ulong v = first; v < end; v += step) {
    const VT x = LOAD_VEC(p, v);
    acc = opv(acc, x);
  }
  return reduce_lanes(acc);
}

/* Fold elements [first, end) of p one at a time (tails). */
T fold_elements(__global const T *p, ulong first, ulong end, T x) {
  for (ulong i = first; i < end; i++)
    x = op(x, p[i]);
  return x;
}

/*
 * Work-group reduce of one value per work-item, a tree in local memory
 * (buf holds PRISM_WG values). The result is valid in work-item 0.
 */
T wg_reduce(T x, __local T *buf) {
  const uint lid = get_local_id(0);
  buf[lid] = x;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint s = PRISM_WG / 2; s > 0; s >>= 1) {
    if (lid < s)
      buf[lid] = op(buf[lid], buf[lid + s]);
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  return buf[0];
}

/*
 * Work-group exclusive scan of one value per work-item (Hillis-Steele,
 * double-buffered so each step needs one barrier; buf holds 2 * PRISM_WG
 * values). Returns the work-item's exclusive prefix and sets *total to the
 * combination of all values. Ends with a barrier so buf may be reused at
 * once. Defined for a type and combine macro, so that programs needing it
 * for another type than T (the sort's 64-bit counts) share the code.
 */
#define PRISM_DEFINE_WG_SCAN(NAME, TYPE, COMBINE, ZERO)                        \
  TYPE NAME(TYPE x, __local TYPE *buf, TYPE *total) {                          \
    const uint lid = get_local_id(0);                                          \
    uint in = 0;                                                               \
    buf[lid] = x;                                                              \
    barrier(CLK_LOCAL_MEM_FENCE);                                              \
    for (uint off = 1; off < PRISM_WG; off <<= 1) {                            \
      TYPE v = buf[in + lid];                                                  \
      if (lid >= off)                                                          \
        v = COMBINE(buf[in + lid - off], v);                                   \
      buf[(PRISM_WG - in) + lid] = v;                                          \
      in = PRISM_WG - in;                                                      \
      barrier(CLK_LOCAL_MEM_FENCE);                                            \
    }                                                                          \
    TYPE exclusive = lid > 0 ? buf[in + lid - 1] : (ZERO);                     \
    *total = buf[in + PRISM_WG - 1];                                           \
    barrier(CLK_LOCAL_MEM_FENCE);                                              \
    return exclusive;                                                          \
  }

PRISM_DEFINE_WG_SCAN(wg_scan_exclusive, T, op, IDENTITY)

/*
 * Segment offsets as the segmented primitives take them (core/check.h):
 * num_segments + 1 integers of u32, i32, u64 or i64, named at run time by
 * offset_code = OFFSET_SIGNED | OFFSET_WIDE, so one program serves every
 * offset type. backend_cuda/segmented.cuh reads them the same way.
 */
#define OFFSET_SIGNED 1u
#define OFFSET_WIDE 2u

/* Offset s clamped to [0, n]; *ok = whether it lay in [0, n]. */
ulong offset_load(__global const uchar *offsets, ulong s, uint code, ulong n,
                  uint *ok) {
  ulong v;
  int negative;
  if (code & OFFSET_WIDE) {
    v = ((__global const ulong *)offsets)[s];
    negative = (code & OFFSET_SIGNED) && (long)v < 0;
  } else {
    const uint w = ((__global const uint *)offsets)[s];
    negative = (code & OFFSET_SIGNED) && (int)w < 0;
    v = w;
  }
  *ok = !negative && v <= n;
  return negative ? 0 : min(v, n);
}
