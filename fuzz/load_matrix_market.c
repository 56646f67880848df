/* SPDX-License-Identifier: MIT */
/*
 * Fuzz target: the Matrix Market loader forced. The first byte picks the
 * options (fuzz_options: symmetrize, small limits; '@' is the defaults),
 * the rest is the file.
 */
#include "fuzz_graph.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size == 0)
    return 0;
  prism_load_options o;
  fuzz_options(data[0], PRISM_GRAPH_MATRIX_MARKET, &o);
  fuzz_check_load(data + 1, size - 1, &o);
  return 0;
}
