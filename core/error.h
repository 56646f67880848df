/* SPDX-License-Identifier: MIT */
/*
 * Error reporting shared by core and the backends.
 *
 * Each helper records a status and a printf-style message and returns the
 * status, so a failing path reads `return prism__fail(ctx, PRISM_..., ...)`.
 * With ctx NULL the message goes to the thread-local slot read by
 * prism_last_error().
 */
#ifndef PRISM_CORE_ERROR_H
#define PRISM_CORE_ERROR_H

#include "prism.h"

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__)
#define PRISM__PRINTF(fmt_index, first_arg)                                    \
  __attribute__((format(printf, fmt_index, first_arg)))
#else
#define PRISM__PRINTF(fmt_index, first_arg)
#endif

/** Record status and message on ctx (or thread-locally when ctx is NULL). */
prism_status prism__fail(prism_context *ctx, prism_status status,
                         const char *fmt, ...) PRISM__PRINTF(3, 4);

/** As prism__fail, also recording the device runtime's native error code
 * (cudaError_t, cl_int). */
prism_status prism__fail_native(prism_context *ctx, prism_status status,
                                long long native, const char *fmt, ...)
    PRISM__PRINTF(4, 5);

/** Keep an OpenCL program build log on the context (copied; NULL clears). */
void prism__set_build_log(prism_context *ctx, const char *log);

/** Clear the thread-local message (called at the start of creation). */
void prism__clear_global_error(void);

#ifdef __cplusplus
}
#endif

#endif /* PRISM_CORE_ERROR_H */
