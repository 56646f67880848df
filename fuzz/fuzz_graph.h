/* SPDX-License-Identifier: MIT */
/*
 * What the fuzz targets share: the libFuzzer entry point, a check that
 * aborts (so the fuzzer keeps the input), input bytes as load options,
 * and the promises every load and save must keep (fuzz_graph.c).
 */
#ifndef PRISM_FUZZ_GRAPH_H
#define PRISM_FUZZ_GRAPH_H

#include "graph/csr.h"

#include <stddef.h>
#include <stdint.h>

/** Each target defines it; libFuzzer or replay.c calls it. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/** Print what failed and abort. */
_Noreturn void fuzz_fail(const char *file, int line, const char *what,
                         const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

#define FUZZ_CHECK(cond, ...)                                                  \
  do {                                                                         \
    if (!(cond))                                                               \
      fuzz_fail(__FILE__, __LINE__, #cond, __VA_ARGS__);                       \
  } while (0)

/**
 * Load options from one byte (fuzz/README.md): bit 0 symmetrize, bit 1
 * index_base 1, bits 2-3 max_vertices (default, 2^20, 100, 1), bits 4-5
 * max_edges (default, 1000, 10, 0). '@' (0x40) is the defaults.
 */
void fuzz_options(uint8_t byte, prism_graph_format format,
                  prism_load_options *o);

/** prism__csr_load_stream over the bytes (through fmemopen). */
prism_status fuzz_load(const uint8_t *data, size_t size,
                       const prism_load_options *o, prism_csr *out);

/**
 * Load the bytes and check what prism_csr_load promises: on success a
 * valid CSR within the limits and the vertex rule, symmetric when
 * undirected, that saves and loads back as the same graph, and loads the
 * same with a newline appended; on failure a zeroed CSR, an expected
 * status and a message that names the function and a line of the file
 * (at most one past the last). A NUL byte is no different from '!'
 * (neither is blank, a digit, a comment character or in a keyword), so the
 * status and the graph must not change when each NUL becomes '!'. Returns
 * the status.
 */
prism_status fuzz_check_load(const uint8_t *data, size_t size,
                             const prism_load_options *o);

/** Save g to memory and load it back: the same arrays when g is directed,
 * the same rows as multisets when it is undirected and symmetric. */
void fuzz_check_round_trip(const prism_csr *g);

/** 1 when the multiset of g's edges equals that of their reverses. */
int fuzz_is_symmetric(const prism_csr *g);

/** 1 when a and b have the same shape and the same rows as multisets
 * (same_order: the same arrays). */
int fuzz_same_graph(const prism_csr *a, const prism_csr *b, int same_order);

#endif /* PRISM_FUZZ_GRAPH_H */
