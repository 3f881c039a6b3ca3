// Graph-break summaries (graph_breaks.h) to bytes and back, for the on-disk cache: a file whose
// text has not changed is not parsed again. The encoding is private to one build of cudalint
// (the cache key includes the build id), so it carries no version of its own.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "analyzer/frontends/python/graph_breaks.h"

namespace cudalint::python::gb {

std::string serialize(const Summary& s);
// nullopt for bytes that are not a whole summary (truncated, corrupted): bounds are checked
// everywhere, so any input is safe.
std::optional<Summary> deserialize(std::string_view bytes);

}  // namespace cudalint::python::gb
