/* SPDX-License-Identifier: MIT */
#ifndef PRISM_CORE_ENV_H
#define PRISM_CORE_ENV_H

#include "prism.h"

/**
 * Read PRISM_BACKEND, PRISM_DEVICE and PRISM_OPENCL_PLATFORM into options,
 * which hold the defaults (prism_context_options_init). Unset or empty
 * variables leave them as they are. A bad value returns
 * PRISM_INVALID_ENVIRONMENT with a thread-local message listing the valid
 * values. options->opencl_platform points into the environment.
 */
prism_status prism__options_from_env(prism_context_options *options);

/** 1 when a and b are equal ignoring ASCII case: how every PRISM_*
 * variable's named values are compared. */
int prism__equals_ignore_case(const char *a, const char *b);

#endif /* PRISM_CORE_ENV_H */
