/* SPDX-License-Identifier: MIT */
/*
 * The OpenCL C sources embedded at build time (cmake/embed_cl.cmake turns
 * each kernels_cl/ file into the table below), so the library needs no files at
 * run time and a kernel edit is a rebuild, not a reinstall.
 */
#ifndef PRISM_OPENCL_SOURCES_H
#define PRISM_OPENCL_SOURCES_H

#include <stddef.h>

typedef struct prism__cl_source {
  const char *name;   /* file name: "reduce.cl" */
  const char *text;   /* size bytes, NUL-terminated */
  size_t size;        /* bytes, without the NUL */
  const char *sha256; /* hex digest of the file: part of cache keys */
} prism__cl_source;

extern const prism__cl_source prism__cl_sources[];
extern const size_t prism__cl_source_count;

/** The embedded source of that file name, or NULL. */
const prism__cl_source *prism__cl_find_source(const char *name);

#endif /* PRISM_OPENCL_SOURCES_H */
