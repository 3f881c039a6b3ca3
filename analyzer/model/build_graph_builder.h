// Builds the build graph (build_graph.h) from the model's parsed build files.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "analyzer/core/source_file.h"
#include "analyzer/model/project_model.h"

namespace cudalint::model {

struct GraphInputs {
  // Every loaded file with its absolute path.
  const std::vector<std::pair<const SourceFile*, std::string>>* sources = nullptr;
  // Display path of a file that is not loaded (a declared source absent from the checkout).
  std::function<std::string(const std::string& abs)> display_path;
  // Reads CMake files, for a project evaluated again with a Dockerfile's `cmake -D` values.
  cmake::FileLoader cmake_loader;
  std::string root;  // absolute directory the analysed files share
  std::optional<Fact<std::string>> target_archs_override;
  MaybeFact<domain::CudaVersion> default_cuda;  // the config's `cuda-version`
};

BuildGraph build_graph(const ProjectModel& m, const GraphInputs& in);

}  // namespace cudalint::model
