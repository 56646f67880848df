/* SPDX-License-Identifier: MIT */
#ifndef PRISM_CORE_REGISTRY_H
#define PRISM_CORE_REGISTRY_H

#include "backend.h"

/** The built-in backend of that kind, or NULL when it is not built. */
const prism__backend *prism__find_backend(prism_backend kind);

#endif /* PRISM_CORE_REGISTRY_H */
