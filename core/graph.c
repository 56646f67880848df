/* Device graphs: placeholder until they land. */
#include "graph.h"
