/* SPDX-License-Identifier: MIT */
#include "prism.h"

const char *prism_version(void) {
  return PRISM_VERSION_STRING;
}

unsigned prism_version_number(void) {
  return PRISM_VERSION_NUMBER;
}
