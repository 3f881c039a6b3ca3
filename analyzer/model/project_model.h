// The project build model: what every front-end learned, merged on one thread.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "analyzer/core/source_file.h"
#include "analyzer/frontends/dockerfile/dockerfile.h"
#include "analyzer/model/arch.h"
#include "analyzer/model/docker_build.h"
#include "analyzer/model/fact.h"

namespace cudalint::model {

// A parsed Dockerfile with the facts extracted from it.
struct DockerfileUnit {
  const SourceFile* file = nullptr;
  docker::Dockerfile ast;
  DockerBuild build;
};

// Inputs that do not come from the analysed files.
struct ModelInputs {
  // `--target-archs` or the config's `target-archs`: overrides the build files.
  std::optional<Fact<std::string>> target_archs_override;
};

struct ProjectModel {
  std::vector<DockerfileUnit> dockerfiles;  // sorted by path
  std::optional<Fact<std::string>> target_archs_override;
  std::optional<Origin> first_cuda_source;  // a .cu/.cuh in the tree: the project has CUDA code
  // Until the setup.py/CMake front-ends land: a build file that mentions arch flags or
  // TORCH_CUDA_ARCH_LIST, so "no arch list" rules stay silent rather than guess.
  std::optional<Origin> arch_flags_elsewhere;
};

// `sources` are all successfully loaded files (any kind); `dockerfiles` were parsed by the
// front-end in parallel beforehand.
ProjectModel build_model(const std::vector<const SourceFile*>& sources,
                         std::vector<DockerfileUnit> dockerfiles, const ModelInputs& inputs);

}  // namespace cudalint::model
