/* SPDX-License-Identifier: MIT */
/* OpenCL error codes by name, and failures reported with them. */
#include "opencl_internal.h"

#include <stdarg.h>
#include <stdio.h>

#define CL_ERROR_LIST(XX)                                                      \
  XX(CL_SUCCESS)                                                               \
  XX(CL_DEVICE_NOT_FOUND)                                                      \
  XX(CL_DEVICE_NOT_AVAILABLE)                                                  \
  XX(CL_COMPILER_NOT_AVAILABLE)                                                \
  XX(CL_MEM_OBJECT_ALLOCATION_FAILURE)                                         \
  XX(CL_OUT_OF_RESOURCES)                                                      \
  XX(CL_OUT_OF_HOST_MEMORY)                                                    \
  XX(CL_PROFILING_INFO_NOT_AVAILABLE)                                          \
  XX(CL_MEM_COPY_OVERLAP)                                                      \
  XX(CL_IMAGE_FORMAT_MISMATCH)                                                 \
  XX(CL_IMAGE_FORMAT_NOT_SUPPORTED)                                            \
  XX(CL_BUILD_PROGRAM_FAILURE)                                                 \
  XX(CL_MAP_FAILURE)                                                           \
  XX(CL_MISALIGNED_SUB_BUFFER_OFFSET)                                          \
  XX(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST)                             \
  XX(CL_COMPILE_PROGRAM_FAILURE)                                               \
  XX(CL_LINKER_NOT_AVAILABLE)                                                  \
  XX(CL_LINK_PROGRAM_FAILURE)                                                  \
  XX(CL_DEVICE_PARTITION_FAILED)                                               \
  XX(CL_KERNEL_ARG_INFO_NOT_AVAILABLE)                                         \
  XX(CL_INVALID_VALUE)                                                         \
  XX(CL_INVALID_DEVICE_TYPE)                                                   \
  XX(CL_INVALID_PLATFORM)                                                      \
  XX(CL_INVALID_DEVICE)                                                        \
  XX(CL_INVALID_CONTEXT)                                                       \
  XX(CL_INVALID_QUEUE_PROPERTIES)                                              \
  XX(CL_INVALID_COMMAND_QUEUE)                                                 \
  XX(CL_INVALID_HOST_PTR)                                                      \
  XX(CL_INVALID_MEM_OBJECT)                                                    \
  XX(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR)                                       \
  XX(CL_INVALID_IMAGE_SIZE)                                                    \
  XX(CL_INVALID_SAMPLER)                                                       \
  XX(CL_INVALID_BINARY)                                                        \
  XX(CL_INVALID_BUILD_OPTIONS)                                                 \
  XX(CL_INVALID_PROGRAM)                                                       \
  XX(CL_INVALID_PROGRAM_EXECUTABLE)                                            \
  XX(CL_INVALID_KERNEL_NAME)                                                   \
  XX(CL_INVALID_KERNEL_DEFINITION)                                             \
  XX(CL_INVALID_KERNEL)                                                        \
  XX(CL_INVALID_ARG_INDEX)                                                     \
  XX(CL_INVALID_ARG_VALUE)                                                     \
  XX(CL_INVALID_ARG_SIZE)                                                      \
  XX(CL_INVALID_KERNEL_ARGS)                                                   \
  XX(CL_INVALID_WORK_DIMENSION)                                                \
  XX(CL_INVALID_WORK_GROUP_SIZE)                                               \
  XX(CL_INVALID_WORK_ITEM_SIZE)                                                \
  XX(CL_INVALID_GLOBAL_OFFSET)                                                 \
  XX(CL_INVALID_EVENT_WAIT_LIST)                                               \
  XX(CL_INVALID_EVENT)                                                         \
  XX(CL_INVALID_OPERATION)                                                     \
  XX(CL_INVALID_GL_OBJECT)                                                     \
  XX(CL_INVALID_BUFFER_SIZE)                                                   \
  XX(CL_INVALID_MIP_LEVEL)                                                     \
  XX(CL_INVALID_GLOBAL_WORK_SIZE)                                              \
  XX(CL_INVALID_PROPERTY)                                                      \
  XX(CL_INVALID_IMAGE_DESCRIPTOR)                                              \
  XX(CL_INVALID_COMPILER_OPTIONS)                                              \
  XX(CL_INVALID_LINKER_OPTIONS)                                                \
  XX(CL_INVALID_DEVICE_PARTITION_COUNT)

/* Codes from extensions, defined here so no extension header is needed. */
#define PRISM_CL_PLATFORM_NOT_FOUND_KHR (-1001)

const char *prism__cl_error_name(cl_int err) {
  switch (err) {
#define CL_ERROR_CASE_(name)                                                   \
  case name:                                                                   \
    return #name;
    CL_ERROR_LIST(CL_ERROR_CASE_)
#undef CL_ERROR_CASE_
  case PRISM_CL_PLATFORM_NOT_FOUND_KHR:
    return "CL_PLATFORM_NOT_FOUND_KHR";
  default:
    return "unknown OpenCL error";
  }
}

/* CL_OUT_OF_RESOURCES: the device ran out of what a command needs, be it
 * memory (NVIDIA's driver allocates a buffer only when a launch first
 * uses it) or a launch's resources. A caller acts on it as on the other
 * two, by asking for less. NVIDIA's driver reports a kernel's fault with
 * it too; the message and native code in the context tell them apart. */
static prism_status status_of(cl_int err) {
  switch (err) {
  case CL_MEM_OBJECT_ALLOCATION_FAILURE:
  case CL_OUT_OF_RESOURCES:
  case CL_OUT_OF_HOST_MEMORY:
    return PRISM_OUT_OF_MEMORY;
  default:
    return PRISM_BACKEND_ERROR;
  }
}

prism_status prism__cl_fail(prism_context *ctx, cl_int err, const char *fmt,
                            ...) {
  char what[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(what, sizeof what, fmt, ap);
  va_end(ap);
  return prism__fail_native(ctx, status_of(err), err, "%s: %s (%d)", what,
                            prism__cl_error_name(err), (int)err);
}
