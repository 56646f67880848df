/* SPDX-License-Identifier: MIT */
/*
 * From the run-time (type, op) of a call to a template instantiation: one
 * switch here, so each primitive writes its host driver once as a template
 * and calls dispatch_type_op with a generic lambda taking an OpTag (the
 * radix sort: dispatch_sort, with a SortTag of key type and value size;
 * gather/scatter: dispatch_move, with a MoveTag of element and index type;
 * compaction: dispatch_element and dispatch_bits, with a TypeTag).
 */
#ifndef PRISM_BACKEND_CUDA_DISPATCH_CUH
#define PRISM_BACKEND_CUDA_DISPATCH_CUH

#include "error.h"
#include "prism.h"

#include <stddef.h>
#include <stdint.h>

namespace prism_cuda {

template <class T, prism_op OP> struct OpTag {
  using type = T;
  static constexpr prism_op op = OP;
};

template <class T, class F>
prism_status dispatch_op(prism_context *ctx, prism_op op, F &&f) {
  switch (op) {
  case PRISM_SUM:
    return f(OpTag<T, PRISM_SUM>{});
  case PRISM_MIN:
    return f(OpTag<T, PRISM_MIN>{});
  case PRISM_MAX:
    return f(OpTag<T, PRISM_MAX>{});
  }
  // core validates op, so this is a bug in prism, not in the caller.
  return prism__fail(ctx, PRISM_INTERNAL, "CUDA backend: unknown op %d",
                     (int)op);
}

template <class F>
prism_status dispatch_type_op(prism_context *ctx, prism_type type, prism_op op,
                              F &&f) {
  switch (type) {
  case PRISM_I32:
    return dispatch_op<int32_t>(ctx, op, f);
  case PRISM_U32:
    return dispatch_op<uint32_t>(ctx, op, f);
  case PRISM_F32:
    return dispatch_op<float>(ctx, op, f);
  case PRISM_I64:
    return dispatch_op<int64_t>(ctx, op, f);
  case PRISM_U64:
    return dispatch_op<uint64_t>(ctx, op, f);
  case PRISM_F64:
    return dispatch_op<double>(ctx, op, f);
  case PRISM_U8: // core refuses u8 for arithmetic primitives
    break;
  }
  return prism__fail(ctx, PRISM_INTERNAL, "CUDA backend: unknown type %d",
                     (int)type);
}

/* Radix sort: the key type and the value size (0 for keys only, 4, 8). */
template <prism_type KEY_TYPE, int VALUE_BYTES> struct SortTag {
  static constexpr prism_type key_type = KEY_TYPE;
  static constexpr int value_bytes = VALUE_BYTES;
};

template <prism_type KEY_TYPE, class F>
prism_status dispatch_value_size(prism_context *ctx, size_t value_size, F &&f) {
  switch (value_size) {
  case 0:
    return f(SortTag<KEY_TYPE, 0>{});
  case 4:
    return f(SortTag<KEY_TYPE, 4>{});
  case 8:
    return f(SortTag<KEY_TYPE, 8>{});
  }
  return prism__fail(ctx, PRISM_INTERNAL,
                     "CUDA backend: unsupported value size %zu", value_size);
}

template <class F>
prism_status dispatch_sort(prism_context *ctx, prism_type key_type,
                           size_t value_size, F &&f) {
  switch (key_type) {
  case PRISM_I32:
    return dispatch_value_size<PRISM_I32>(ctx, value_size, f);
  case PRISM_U32:
    return dispatch_value_size<PRISM_U32>(ctx, value_size, f);
  case PRISM_F32:
    return dispatch_value_size<PRISM_F32>(ctx, value_size, f);
  case PRISM_I64:
    return dispatch_value_size<PRISM_I64>(ctx, value_size, f);
  case PRISM_U64:
    return dispatch_value_size<PRISM_U64>(ctx, value_size, f);
  case PRISM_F64:
    return dispatch_value_size<PRISM_F64>(ctx, value_size, f);
  case PRISM_U8: // core refuses u8 keys
    break;
  }
  return prism__fail(ctx, PRISM_INTERNAL, "CUDA backend: unknown type %d",
                     (int)key_type);
}

/* Gather/scatter: the element's raw bits (uint32_t or uint64_t, from the
 * element size) and the index type. */
template <class E, class I> struct MoveTag {
  using element = E;
  using index = I;
};

template <class E, class F>
prism_status dispatch_index(prism_context *ctx, prism_type index_type, F &&f) {
  switch (index_type) {
  case PRISM_U32:
    return f(MoveTag<E, uint32_t>{});
  case PRISM_I32:
    return f(MoveTag<E, int32_t>{});
  case PRISM_U64:
    return f(MoveTag<E, uint64_t>{});
  case PRISM_I64:
    return f(MoveTag<E, int64_t>{});
  default:
    break;
  }
  return prism__fail(ctx, PRISM_INTERNAL,
                     "CUDA backend: unsupported index type %d",
                     (int)index_type);
}

template <class F>
prism_status dispatch_move(prism_context *ctx, size_t element_size,
                           prism_type index_type, F &&f) {
  switch (element_size) {
  case 4:
    return dispatch_index<uint32_t>(ctx, index_type, f);
  case 8:
    return dispatch_index<uint64_t>(ctx, index_type, f);
  }
  return prism__fail(ctx, PRISM_INTERNAL,
                     "CUDA backend: unsupported element size %zu",
                     element_size);
}

/* A type alone (select: element and flag types). */
template <class T> struct TypeTag { using type = T; };

/* From a run-time width (element or flag size) to its raw bits. */
template <class F>
prism_status dispatch_bits(prism_context *ctx, size_t bytes, F &&f) {
  switch (bytes) {
  case 1:
    return f(TypeTag<uint8_t>{});
  case 4:
    return f(TypeTag<uint32_t>{});
  case 8:
    return f(TypeTag<uint64_t>{});
  }
  return prism__fail(ctx, PRISM_INTERNAL, "CUDA backend: unsupported width %zu",
                     bytes);
}

/* From a run-time element type to the type itself. */
template <class F>
prism_status dispatch_element(prism_context *ctx, prism_type type, F &&f) {
  switch (type) {
  case PRISM_I32:
    return f(TypeTag<int32_t>{});
  case PRISM_U32:
    return f(TypeTag<uint32_t>{});
  case PRISM_F32:
    return f(TypeTag<float>{});
  case PRISM_I64:
    return f(TypeTag<int64_t>{});
  case PRISM_U64:
    return f(TypeTag<uint64_t>{});
  case PRISM_F64:
    return f(TypeTag<double>{});
  case PRISM_U8:
    return f(TypeTag<uint8_t>{});
  }
  return prism__fail(ctx, PRISM_INTERNAL, "CUDA backend: unknown type %d",
                     (int)type);
}

} // namespace prism_cuda

#endif /* PRISM_BACKEND_CUDA_DISPATCH_CUH */
