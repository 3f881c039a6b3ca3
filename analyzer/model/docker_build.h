// Build facts read from one Dockerfile: per stage, the CUDA toolkit of the base image and
// the RUN steps that compile CUDA extensions, with the arch settings visible to them, and what
// the build graph needs of each invocation: the files copied in, the directory and environment
// each command runs with, CMake configure steps, the toolkit a stage installs and the torch a
// step builds against.
#pragma once

#include <optional>
#include <string>
#include <utility>
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
  std::optional<std::string> workdir;        // the image's WORKDIR when known (pytorch/pytorch: /workspace)
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
  // As the cpp_extension of `torch` reads it (torch 2.11 when null).
  domain::ArchList parsed(const domain::TorchVersion* torch = nullptr) const;
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

  // Absolute directory the command runs in: the stage's WORKDIR there (inherited through
  // FROM <stage>; "/" for an external base image, "/workspace" for pytorch/pytorch), then any
  // `cd`/`pushd`/`popd` earlier in the same RUN script. Empty when unknown (a variable without
  // a value, `cd` with no argument).
  std::string cwd;
  // Absolute in-image path of what the command builds (`pip install .` -> cwd, `pip install
  // /src`, `-e dir`, `python setup.py install` -> cwd, `python /src/setup.py install` -> "/src",
  // `python -m build [dir]`); nullopt for a package name or URL, or when unknown.
  std::optional<std::string> build_path;
  // Every variable visible to the command, sorted by name: the stage's ENV and ARG with Docker's
  // scoping (ARGs before the first FROM only through a redeclaration; ENV and ARG inherited
  // through FROM <stage>), `export`s and `X=v` of exported variables earlier in the same RUN
  // script, and `X=v cmd` / `env X=v cmd` inline. Origins are the value as written (the name
  // when the value is empty); `conditional` when the value is or derives from a build-arg
  // default, which `--build-arg` can override.
  std::vector<std::pair<std::string, Fact<std::string>>> env;
  std::vector<std::string> unknown_env;  // visible, but the value is not known (`$(nproc)`, an ARG without default)
  // The torch the step builds against: the latest `pip install torch...` before the command
  // (an earlier command, not the same one: pip builds before it installs), in this stage or
  // an ancestor. `torch_install` indexes the torch_installs of stage `torch_install_stage`
  // (this stage's index when the install is its own).
  std::optional<size_t> torch_install;
  std::optional<size_t> torch_install_stage;
};

// `cmake` configuring a project in a RUN (not `cmake --build`, `--install`, `-E`, `-P`).
struct CMakeStep {
  size_t instruction = 0;
  Origin where;                 // the command
  std::string command;          // its words, for messages (at most ~200 bytes)
  std::string cwd;              // as CompileStep::cwd
  // Absolute in the image: `-S dir`, else the positional path (`cmake ..`, `cmake /src`), else
  // cwd; resolved against cwd. Empty when unknown.
  std::string source_dir;
  // `-B dir`, else cwd (where CMake writes its cache); nullopt when unknown.
  std::optional<std::string> build_dir;
  // `-DNAME=V`, `-DNAME:TYPE=V`, `-D NAME=V` in order of appearance; the origin is the value as
  // written (inside the quotes when it is quoted exactly), `conditional` as in env.
  std::vector<std::pair<std::string, Fact<std::string>>> defines;
  std::vector<std::string> unknown_defines;  // names whose value depends on an unknown variable
  std::vector<std::pair<std::string, Fact<std::string>>> env;  // as CompileStep::env
  std::vector<std::string> unknown_env;
};

// A COPY, or an ADD of local paths (an ADD of URLs only, and `git clone` in RUN, bring nothing
// from the build context).
struct CopyFact {
  std::vector<std::string> sources;  // as written, variables expanded (relative to the build
                                     // context, or to the stage's filesystem with --from)
  std::string dest;                  // absolute in the image, against WORKDIR; "" when unknown
  bool dest_is_directory = false;    // `dir/`, `.`, or several sources: they go inside dest
  std::optional<std::string> from_stage;  // `--from=` as written (a stage name, index or image)
  Origin where;                      // the instruction
  size_t instruction = 0;
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

  std::vector<CopyFact> copies;
  std::vector<CMakeStep> cmake_steps;
  // The toolkit version the stage installs: apt `cuda-toolkit-11-8` / `cuda-nvcc-12-4` /
  // `cuda-compiler-12-1` / `cuda-12-1` (or `=12.4.1-1` pins), conda/mamba `cuda-nvcc=12.1`,
  // `cuda-toolkit=12.4.*`, `nvidia::cuda-toolkit=11.8`, `-c nvidia/label/cuda-12.1.0
  // cuda-toolkit`, pip `nvidia-cuda-nvcc-cu12==12.4.*`, a `cuda_12.1.0_..._linux.run` runfile,
  // and ENV CUDA_HOME / CUDA_PATH / CUDA_ROOT / CUDA_TOOLKIT_ROOT_DIR = /usr/local/cuda-X.Y or a
  // PATH with /usr/local/cuda-X.Y/bin. The last one in the stage wins; inherited through
  // FROM <stage> when the stage installs none itself.
  MaybeFact<domain::CudaVersion> installed_cuda;
  // The torch of a pytorch/pytorch base image ("2.3.0-cuda12.1-..."), inherited through FROM <stage>.
  MaybeFact<domain::TorchVersion> image_torch;
};

// The toolkit commands of the stage see: the installed one when there is one, else the base
// image's (`cuda`, inherited through FROM <stage>).
MaybeFact<domain::CudaVersion> effective_cuda(const DockerStage& stage);

struct DockerBuild {
  std::string path;
  std::vector<DockerStage> stages;
};

// The torch a stage's builds compile against: the last `pip install torch...` of the stage and
// its ancestors (unknown when that one is not an exact pin), else the base image's torch.
MaybeFact<domain::TorchVersion> stage_torch(const DockerBuild& build, const DockerStage& stage);

DockerBuild extract_docker_build(const SourceFile& file, const docker::Dockerfile& df);

}  // namespace cudalint::model
