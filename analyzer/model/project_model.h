// The project build model: what every front-end learned, merged on one thread.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "analyzer/core/source_file.h"
#include "analyzer/frontends/cmake/cmake.h"
#include "analyzer/frontends/cuda/cuda_frontend.h"
#include "analyzer/frontends/dockerfile/dockerfile.h"
#include "analyzer/frontends/pyproject/pyproject.h"
#include "analyzer/frontends/python/setup_py.h"
#include "analyzer/frontends/requirements/requirements.h"
#include "analyzer/domain/arch.h"
#include "analyzer/model/build_graph.h"
#include "analyzer/model/ci_build.h"
#include "analyzer/model/compiled_regions.h"
#include "analyzer/model/docker_build.h"
#include "analyzer/model/fact.h"

namespace cudalint::model {

// A parsed Dockerfile with the facts extracted from it.
struct DockerfileUnit {
  const SourceFile* file = nullptr;
  docker::Dockerfile ast;
  DockerBuild build;
};

struct SetupPyUnit {
  const SourceFile* file = nullptr;
  python::SetupPy setup;
};

struct PyProjectUnit {
  const SourceFile* file = nullptr;
  pyproject::File project;
};

struct RequirementsUnit {
  const SourceFile* file = nullptr;
  requirements::File reqs;
};

// One CMake project, evaluated from its top-level CMakeLists.txt.
struct CMakeProject {
  std::string top_level;  // display path of the top-level CMakeLists.txt
  cmake::Facts facts;
};

// A torch version the project pins somewhere, with its origin.
struct TorchPin {
  domain::TorchVersion version;
  std::optional<domain::CudaVersion> cuda_variant;  // the version's +cuXYZ, else the wheel index
  Origin origin;
  bool in_dockerfile = false;  // else requirements*.txt / pyproject.toml: what the developer installs
};


// What the CUDA front-end found in one .cu/.cuh, per target arch.
struct CudaUnit {
  const SourceFile* file = nullptr;
  std::vector<cuda::ArchResult> per_arch;
  std::vector<cuda::GlobalAccess> accesses;  // global loads/stores of its kernels
  // The archs its builds compile it for (build graph); empty and `targets_unknown` when every
  // build decides them at build time or no known build compiles it.
  std::vector<TargetArch> targets;
  bool targets_unknown = false;
  MaybeFact<domain::CudaVersion> cuda;  // the oldest toolkit among its builds
};

// Inputs that do not come from the analysed files.
struct ProjectModel;

struct ModelInputs {
  // Reads CMake files (absolute path) for the evaluator, and maps them to display paths.
  cmake::FileLoader cmake_loader;
  cmake::DisplayPath display_path;
  // `--target-archs` or the config's `target-archs`: overrides the build files.
  std::optional<Fact<std::string>> target_archs_override;
  // The config's `cuda-version`: the toolkit to assume when no build file says.
  std::optional<Fact<domain::CudaVersion>> default_cuda;
  // The config's `[graph-breaks] entry-points` globs, with where they are written.
  std::vector<std::pair<std::string, Origin>> graph_break_entry_points;
  // Summarises the Python units the graph-break analysis needs (compiled_regions.h).
  SummarizeUnits summarize_python;
  // The GB rules' call patterns, for units summarize_python leaves out.
  const python::gb::CallPatterns* graph_break_calls = nullptr;
  bool skip_graph_breaks = false;  // only the build facts are wanted (`cudalint build-graph`)
  // Called once the build facts (device targets, toolkit) are set, before the graph-break
  // analysis, with the model as it is then: work that needs only those facts (the CUDA sources)
  // can run beside the analysis. The model is moved afterwards: copy what outlives the call.
  std::function<void(const ProjectModel&)> build_facts_ready;
};

struct ProjectModel {
  std::vector<DockerfileUnit> dockerfiles;  // sorted by path
  std::vector<CiWorkflowUnit> ci_workflows;  // sorted by path: their jobs are build-graph invocations
  std::vector<SetupPyUnit> setup_pys;       // sorted by path
  std::vector<RequirementsUnit> requirements;
  std::vector<PyProjectUnit> pyprojects;     // sorted by path
  std::vector<CMakeProject> cmake_projects;
  std::vector<TorchPin> torch_pins;         // exact torch pins from Dockerfiles and requirements
  std::optional<Fact<std::string>> target_archs_override;
  std::optional<Origin> first_cuda_source;  // a .cu/.cuh in the tree: the project has CUDA code
  // Where setup.py or CMake choose archs themselves (or might: values not statically known),
  // so "no arch list" rules stay silent rather than guess.
  std::optional<Origin> arch_flags_elsewhere;
  // Which builds compile each CUDA source, with which archs and toolkit (build_graph.h).
  BuildGraph graph;
  std::vector<CudaUnit> cuda_units;  // filled by the engine after the model is built
  std::vector<PythonUnit> python_units;  // every other .py file, sorted by path
  std::vector<GraphBreak> graph_breaks;  // in compiled regions (compiled_regions.h)
  std::vector<UnmatchedEntryPoint> unmatched_entry_points;  // config globs naming no function
};

// Per-file front-end results, parsed in parallel beforehand.
struct ParsedUnits {
  std::vector<DockerfileUnit> dockerfiles;
  std::vector<CiWorkflowUnit> ci_workflows;
  std::vector<SetupPyUnit> setup_pys;
  std::vector<RequirementsUnit> requirements;
  std::vector<PyProjectUnit> pyprojects;
  std::vector<PythonUnit> python_units;
};

// `sources` are all successfully loaded files (any kind), with their absolute paths.
ProjectModel build_model(const std::vector<std::pair<const SourceFile*, std::string>>& sources, ParsedUnits units,
                         const ModelInputs& inputs);

}  // namespace cudalint::model
