/* Segmented scan and reduce: placeholder until the primitive lands. */
#include "check.h"
