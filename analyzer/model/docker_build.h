// Build facts read from one Dockerfile: per stage, the CUDA toolkit of the base image and
// the RUN steps that compile CUDA extensions, with the arch settings visible to them.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "analyzer/core/source_file.h"
#include "analyzer/frontends/dockerfile/dockerfile.h"
#include "analyzer/domain/arch.h"
#include "analyzer/domain/cuda_support.h"
#include "analyzer/model/fact.h"
#include "analyzer/domain/torch_support.h"

namespace cudalint::model {

enum class ImageFlavour { Unknown, Devel, Runtime, Base };

// What a base-image reference says about the toolkit inside it.
struct BaseImageInfo {
  std::optional<domain::CudaVersion> cuda;
  ImageFlavour flavour = ImageFlavour::Unknown;
  std::optional<std::string> torch_version;  // pytorch/pytorch:2.3.0-cuda12.1-...
};
// Reads nvidia/cuda (also via nvcr.io / docker.io prefixes) and pytorch/pytorch tags.
BaseImageInfo parse_base_image(std::string_view image);

// One place TORCH_CUDA_ARCH_LIST is given a value.
struct ArchSetting {
  std::string value;            // expanded value
  bool value_known = true;      // false when it depends on an unset build arg
  Origin origin;                // the value as written
  bool contiguous = false;      // value appears byte for byte at origin.span.begin
  bool quoted = false;          // written inside quotes
  enum class Kind { Env, Arg, Inline } kind = Kind::Env;
  domain::ArchList parsed() const;
};

struct CompileStep {
  size_t instruction = 0;
  Origin where;                 // the command that compiles (e.g. `pip install .`)
  std::string command;          // "pip install ." for messages
  std::optional<ArchSetting> arch_list;  // TORCH_CUDA_ARCH_LIST visible to the command
  bool force_cuda = false;      // FORCE_CUDA=1 visible
  bool known_cuda_package = false;  // a package that always compiles CUDA (flash-attn, apex, ...)
  bool local_project = false;       // builds the build context (`.`, `/src`, `-e dir`, setup.py)
  // pip / uv pip / python -m build without --no-build-isolation: the build environment gets
  // only what the project's build-system.requires lists.
  bool isolated_build = false;
  // A package-specific arch variable visible to the step (tiny-cuda-nn reads
  // TCNN_CUDA_ARCHITECTURES instead of TORCH_CUDA_ARCH_LIST).
  std::optional<Origin> own_arch_variable;
  std::optional<Fact<std::string>> max_jobs;  // MAX_JOBS visible to the command
};

// `pip install torch...` in a RUN step.
struct TorchInstall {
  Origin where;                          // the requirement as written
  std::string spec;                      // "torch==2.3.0+cu121", "torch>=2.0", "torch"
  std::optional<domain::TorchVersion> pinned;    // exact `==` pin
  std::optional<domain::IndexVariant> variant;   // from +cuXYZ or --index-url/--extra-index-url
  std::optional<Origin> variant_origin;
};

// A switch that turns off a toolchain safety check (TORCH_DONT_CHECK_COMPILER_ABI=1,
// -allow-unsupported-compiler).
struct SafetyOff {
  Origin where;
  std::string what;
};

struct DockerStage {
  size_t index = 0;
  std::string name;
  std::optional<size_t> parent;  // FROM <earlier stage>
  Origin from;                  // the image reference in FROM
  MaybeFact<domain::CudaVersion> cuda;  // from this stage's base image, or inherited via FROM <stage>
  ImageFlavour flavour = ImageFlavour::Unknown;
  std::vector<ArchSetting> arch_settings;   // every TORCH_CUDA_ARCH_LIST definition in the stage
  std::vector<CompileStep> compile_steps;   // RUN steps that build CUDA/torch extensions
  std::vector<Origin> native_arch_flags;    // `-arch=native`, CMAKE_CUDA_ARCHITECTURES=native in RUN
  std::vector<TorchInstall> torch_installs;
  std::vector<SafetyOff> safety_off;
  std::vector<Fact<std::string>> max_jobs_settings;  // every MAX_JOBS value set in the stage
  // The stage installs a CUDA toolkit itself (conda/apt/pip cuda-nvcc, cuda-toolkit) or points
  // CUDA_HOME somewhere: a runtime base image then still has nvcc.
  std::optional<Origin> installs_toolkit;
};

struct DockerBuild {
  std::string path;
  std::vector<DockerStage> stages;
};

DockerBuild extract_docker_build(const SourceFile& file, const docker::Dockerfile& df);

}  // namespace cudalint::model
