/* Serial reference: segmented. */
#ifndef PRISM_TESTS_REF_SEGMENTED_H
#define PRISM_TESTS_REF_SEGMENTED_H

#include "prism.h"

#endif
