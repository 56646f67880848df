/* Host CSR checks and release: placeholder until they land. */
#include "error.h"

void prism_csr_free(prism_csr *csr) {
  (void)csr;
}

prism_status prism_csr_validate(const prism_csr *csr) {
  (void)csr;
  return prism__fail(NULL, PRISM_UNSUPPORTED, "prism_csr_validate: not built");
}
