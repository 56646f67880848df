/* BFS: placeholder until it lands. */
#include "graph.h"
