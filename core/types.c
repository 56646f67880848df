/* SPDX-License-Identifier: MIT */
/* Names and sizes of the public enumerations. */
#include "prism.h"

const char *prism_status_name(prism_status status) {
  switch (status) {
#define PRISM_STATUS_NAME_(name, value, text)                                  \
  case PRISM_##name:                                                           \
    return #name;
    PRISM_STATUS_MAP(PRISM_STATUS_NAME_)
#undef PRISM_STATUS_NAME_
  }
  return "UNKNOWN";
}

const char *prism_status_string(prism_status status) {
  switch (status) {
#define PRISM_STATUS_TEXT_(name, value, text)                                  \
  case PRISM_##name:                                                           \
    return text;
    PRISM_STATUS_MAP(PRISM_STATUS_TEXT_)
#undef PRISM_STATUS_TEXT_
  }
  return "unknown";
}

size_t prism_type_size(prism_type type) {
  switch (type) {
  case PRISM_U8:
    return 1;
  case PRISM_I32:
  case PRISM_U32:
  case PRISM_F32:
    return 4;
  case PRISM_I64:
  case PRISM_U64:
  case PRISM_F64:
    return 8;
  }
  return 0;
}

const char *prism_type_name(prism_type type) {
  static const char *const names[PRISM_TYPE_COUNT] = {
      "i32", "u32", "f32", "i64", "u64", "f64", "u8"};
  return (unsigned)type < PRISM_TYPE_COUNT ? names[type] : "unknown";
}

const char *prism_op_name(prism_op op) {
  switch (op) {
  case PRISM_SUM:
    return "sum";
  case PRISM_MIN:
    return "min";
  case PRISM_MAX:
    return "max";
  }
  return "unknown";
}

const char *prism_backend_name(prism_backend backend) {
  switch (backend) {
  case PRISM_BACKEND_AUTO:
    return "auto";
  case PRISM_BACKEND_CUDA:
    return "cuda";
  case PRISM_BACKEND_OPENCL:
    return "opencl";
  }
  return "unknown";
}
