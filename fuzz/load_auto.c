/* SPDX-License-Identifier: MIT */
/*
 * Fuzz target: prism_csr_load with the default options (format AUTO), the
 * input being the whole file. Besides the promises of every load
 * (fuzz_check_load), AUTO must load a file exactly as the format prism.h
 * names for it would: Matrix Market when its first bytes after blank
 * space (and a UTF-8 byte order mark) are "%%", else an edge list.
 */
#include "fuzz_graph.h"

#include <string.h>

static int is_space(uint8_t c) {
  return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f' ||
         c == '\n';
}

static prism_graph_format named_format(const uint8_t *data, size_t size) {
  size_t i = size >= 3 && memcmp(data, "\xEF\xBB\xBF", 3) == 0 ? 3 : 0;
  while (i < size && is_space(data[i]))
    i++;
  return size - i >= 2 && data[i] == '%' && data[i + 1] == '%'
             ? PRISM_GRAPH_MATRIX_MARKET
             : PRISM_GRAPH_EDGE_LIST;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  prism_load_options o;
  prism_load_options_init(&o);
  prism_status st = fuzz_check_load(data, size, &o);
  prism_csr a, b;
  prism_status st_auto = fuzz_load(data, size, &o, &a);
  FUZZ_CHECK(st_auto == st, "AUTO gave %s, then %s", prism_status_name(st),
             prism_status_name(st_auto));
  o.format = named_format(data, size);
  prism_status st_named = fuzz_load(data, size, &o, &b);
  FUZZ_CHECK(st_named == st_auto, "AUTO gives %s, %s gives %s",
             prism_status_name(st_auto),
             o.format == PRISM_GRAPH_MATRIX_MARKET ? "MATRIX_MARKET"
                                                   : "EDGE_LIST",
             prism_status_name(st_named));
  FUZZ_CHECK(st_auto != PRISM_OK || fuzz_same_graph(&a, &b, 1),
             "AUTO and the named format load different graphs");
  prism_csr_free(&a);
  prism_csr_free(&b);
  return 0;
}
