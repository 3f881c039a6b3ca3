// `cudalint build-graph` output (text or JSON; docs/build-graph.md).
#pragma once

#include <map>
#include <memory>
#include <set>
#include <string>

#include "analyzer/core/source_file.h"
#include "analyzer/model/build_graph.h"

namespace cudalint {

// `only`: display paths to print (null: every source). `files`: loaded files, for line numbers.
std::string render_build_graph(const model::BuildGraph& g, const std::string& format, const std::set<std::string>* only,
                               const std::map<std::string, std::shared_ptr<const SourceFile>>& files);

}  // namespace cudalint
