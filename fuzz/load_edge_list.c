/* SPDX-License-Identifier: MIT */
/*
 * Fuzz target: the edge-list loader forced. The first byte picks the
 * options (fuzz_options: symmetrize, index_base, small limits; '@' is the
 * defaults), the rest is the file. A 1-based list must load as the same
 * list 0-based with one vertex more, its edges one id higher.
 */
#include "fuzz_graph.h"

#include <stdlib.h>
#include <string.h>

/* g as the 0-based load of a 1-based list gives it: vertex 0 first, with
 * no edges, and every id one higher. */
static int same_shifted(const prism_csr *base1, const prism_csr *base0) {
  if (base0->num_vertices != base1->num_vertices + 1 ||
      base0->num_edges != base1->num_edges ||
      !base0->directed != !base1->directed || base0->row_offsets[1] != 0)
    return 0;
  for (size_t v = 0; v <= base1->num_vertices; v++)
    if (base0->row_offsets[v + 1] != base1->row_offsets[v])
      return 0;
  for (size_t e = 0; e < base1->num_edges; e++)
    if (base0->col_indices[e] != base1->col_indices[e] + 1)
      return 0;
  return 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size == 0)
    return 0;
  prism_load_options o;
  fuzz_options(data[0], PRISM_GRAPH_EDGE_LIST, &o);
  prism_status st = fuzz_check_load(data + 1, size - 1, &o);
  if (st != PRISM_OK || o.index_base != 1 ||
      o.max_vertices < PRISM__CSR_MAX_VERTICES)
    return 0;
  prism_csr one, zero;
  FUZZ_CHECK(fuzz_load(data + 1, size - 1, &o, &one) == PRISM_OK, "reload");
  o.index_base = 0;
  prism_status st0 = fuzz_load(data + 1, size - 1, &o, &zero);
  /* 0-based, the largest id is one more: only the vertex rule may refuse
   * it. */
  FUZZ_CHECK(st0 == PRISM_OK || strstr(prism_last_error(), "per byte"),
             "1-based loads, 0-based fails: %s", prism_last_error());
  FUZZ_CHECK(st0 != PRISM_OK || same_shifted(&one, &zero),
             "0-based is not the 1-based graph shifted by one");
  prism_csr_free(&one);
  prism_csr_free(&zero);
  return 0;
}
