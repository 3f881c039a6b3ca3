// A core header that reaches up into the model: check-layers.py must reject it.
#pragma once
#include "analyzer/model/build_graph.h"
