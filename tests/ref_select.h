/* Serial reference: select. */
#ifndef PRISM_TESTS_REF_SELECT_H
#define PRISM_TESTS_REF_SELECT_H

#include "prism.h"

#endif
