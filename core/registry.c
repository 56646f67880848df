/* SPDX-License-Identifier: MIT */
/* The backends built into this library and how they are probed. */
#include "context.h"
#include "error.h"
#include "registry.h"

#include <stdio.h>

const prism__backend *prism__find_backend(prism_backend kind) {
  switch (kind) {
#ifdef PRISM_HAVE_CUDA
  case PRISM_BACKEND_CUDA:
    return &prism__backend_cuda;
#endif
#ifdef PRISM_HAVE_OPENCL
  case PRISM_BACKEND_OPENCL:
    return &prism__backend_opencl;
#endif
  default:
    return NULL;
  }
}

int prism_backend_built(prism_backend backend) {
  return prism__find_backend(backend) != NULL;
}

prism_status prism_backend_probe(prism_backend backend, int *count,
                                 char *reason, size_t reason_size) {
  /* The whole reason goes to prism_last_error(); the caller's buffer gets
   * as much of it as fits. */
  char full[PRISM__ERROR_MAX] = "";
  if (reason && reason_size > 0)
    reason[0] = '\0';
  prism__clear_global_error();
  if (!count)
    return prism__fail(NULL, PRISM_NULL_POINTER,
                       "prism_backend_probe: count is NULL");
  *count = 0;
  if (backend == PRISM_BACKEND_AUTO)
    return prism__fail(NULL, PRISM_INVALID_ARGUMENT,
                       "prism_backend_probe: backend must be cuda or opencl, "
                       "not auto");
  const prism__backend *b = prism__find_backend(backend);
  prism_status st;
  if (!b) {
    snprintf(full, sizeof full,
             "the %s backend is not built into this "
             "library",
             prism_backend_name(backend));
    st = prism__fail(NULL, PRISM_BACKEND_UNAVAILABLE, "%s", full);
  } else if ((st = b->probe(count, full, sizeof full)) != PRISM_OK) {
    prism__fail(NULL, st, "%s: %s", b->name, full);
  }
  if (reason && reason_size > 0)
    snprintf(reason, reason_size, "%s", full);
  return st;
}
