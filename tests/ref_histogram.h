/* Serial reference: histogram. */
#ifndef PRISM_TESTS_REF_HISTOGRAM_H
#define PRISM_TESTS_REF_HISTOGRAM_H

#include "prism.h"

#endif
