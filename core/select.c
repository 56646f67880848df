/* Stream compaction: placeholder until the primitive lands. */
#include "check.h"
