// The build graph: which builds compile each CUDA source, which invocation runs each build, and
// the archs and toolkit that gives the source, every value with the file it is read from.
// Unknown stays unknown: a build whose archs are decided at build time never borrows another's.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "analyzer/core/diagnostic.h"
#include "analyzer/domain/arch.h"
#include "analyzer/domain/cuda_support.h"
#include "analyzer/domain/torch_support.h"
#include "analyzer/frontends/compile_db/compile_db.h"
#include "analyzer/frontends/python/setup_py.h"
#include "analyzer/model/fact.h"

namespace cudalint::model {

// One arch device code is compiled for, with where the list that names it comes from.
struct TargetArch {
  domain::Arch arch;
  Origin origin;
  std::string via;    // what sets it: "TORCH_CUDA_ARCH_LIST", "CMAKE_CUDA_ARCHITECTURES", "--target-archs"
  uint32_t line = 0;  // 1-based line of `origin` (0 when its file is not among the sources)
  bool sass = true;   // real code for the arch (false: PTX only, CMake's `80-virtual`)
};

// What compiles sources.
struct BuildTarget {
  enum class Kind { SetupExtension, CMakeTarget, JitLoad, CompileDbEntry, Project };
  Kind kind = Kind::Project;
  std::string name;
  Origin where;     // the call or command that declares it
  std::string dir;          // absolute: where its relative sources start
  std::string project_dir;  // absolute: the directory a build of the project runs in (setup.py's, CMake's top level)
  // Absolute paths it compiles, whether or not they exist in the checkout.
  std::vector<std::string> sources;
  // Glob patterns (absolute) its source list is partly made of (`glob.glob`, CMake file(GLOB)).
  struct Glob {
    std::string pattern;
    bool recurse = false;
  };
  std::vector<Glob> source_globs;
  // Directories (absolute) under which it may compile any CUDA source: its list is only partly
  // known (a glob, a computed list) or its build files are not in the tree.
  std::vector<std::string> may_compile_under;
  // Archs its own flags fix (nvcc -gencode/-arch, CMake CUDA_ARCHITECTURES); empty: none.
  std::vector<TargetArch> own_archs;
  // Per-source archs that replace own_archs for that file (CMake source COMPILE_OPTIONS).
  std::map<std::string, std::vector<TargetArch>> source_archs;
  // Its flags choose archs that cannot be read (a computed nvcc list, `-arch=native`).
  std::optional<std::string> archs_unknown;
  // setup.py computes its nvcc flags (from `nvcc -V`, os.getenv, ...): an invocation whose
  // environment and toolkit are known evaluates them again (setup_target_for_build).
  bool flags_per_build = false;
  // CMake without CMAKE_CUDA_ARCHITECTURES: the compiler's default arch (sm_52 before CUDA 13,
  // sm_75 from 13), known where the invocation's toolkit is.
  bool compiler_default_archs = false;
  // torch's extension builder: without an arch flag of its own it takes TORCH_CUDA_ARCH_LIST
  // from the invocation's environment, else the visible GPUs.
  bool reads_torch_arch_list = false;
  // setup.py sets TORCH_CUDA_ARCH_LIST itself (os.environ[...] = ..., setdefault).
  std::optional<Fact<std::string>> setup_arch_list;
  bool setup_arch_list_is_default = false;  // setdefault / only when unset
  // The flags the CUDA front-end parses its sources with (include dirs, defines, standard);
  // null: none known. Shared by targets with the same (CmakeFlagsPool).
  std::shared_ptr<const cuda::CompileFlags> flags;
  std::string project_file;  // setup.py / CMakeLists.txt / compile_commands.json (display path)
  // setup.py: the environment tests its creation depends on (python::Extension's), and the
  // variables setup.py itself sets before them.
  std::vector<python::Extension::EnvCondition> env_conditions;
  std::optional<Span> unknown_condition;
  std::vector<std::pair<std::string, std::string>> setup_env;
  // Made for one invocation only (a CMake project configured with a Dockerfile's -D values).
  std::optional<size_t> only_invocation;
};

// What runs a target's build, with what environment.
struct Invocation {
  enum class Kind { Local, Dockerfile, CiStep };
  Kind kind = Kind::Local;
  Origin where;         // the RUN command (empty for the developer's machine)
  std::string command;  // "pip install ." for messages
  std::string stage;    // Dockerfile stage name or index; CI job (with its matrix values)
  // TORCH_CUDA_ARCH_LIST visible to it (nullopt: unset; value "" with known=false: unreadable).
  std::optional<Fact<std::string>> torch_arch_list;
  bool torch_arch_list_known = true;
  MaybeFact<domain::CudaVersion> cuda;  // the toolkit it has
  std::vector<size_t> targets;          // indices into BuildGraph::targets
  // Dockerfile: the directories (absolute, in the tree) the image has from the build context
  // when the step runs; a source outside them is not in the image. Empty: everything (the
  // developer's machine).
  std::vector<std::string> copied;
  bool copies_known = false;
  // The torch it builds against: a Dockerfile's last exact `pip install torch==...` before the
  // step (else a pytorch/pytorch base image's); on the developer's machine the one exact pin of
  // requirements*.txt / pyproject.toml. Unknown when unpinned or pinned differently.
  MaybeFact<domain::TorchVersion> torch;
  std::optional<domain::CudaVersion> torch_cuda_variant;  // +cuXYZ or the wheel index
  // The environment its build runs with (a Dockerfile stage's ENV/ARG and the step's own
  // assignments; a CI step's env): what setup.py reads. Empty for the developer's machine.
  std::vector<std::pair<std::string, Fact<std::string>>> env;
  std::vector<std::string> env_unknown;  // visible with a value that is not known
};

// One (target, invocation) pair that compiles a source.
struct SourceBuild {
  size_t target = 0;
  size_t invocation = 0;
  std::vector<TargetArch> archs;          // in list order
  std::optional<std::string> archs_unknown;  // why the archs are decided at build time
  MaybeFact<domain::CudaVersion> cuda;
};

struct BuildGraph {
  std::vector<BuildTarget> targets;
  std::vector<Invocation> invocations;  // [0] is the developer's own machine
  // Display path of each CUDA source (analysed or only declared) -> the builds that compile it.
  std::map<std::string, std::vector<SourceBuild>> sources;

  const std::vector<SourceBuild>* builds_of(const std::string& display_path) const {
    auto it = sources.find(display_path);
    return it == sources.end() ? nullptr : &it->second;
  }
};

// The archs a source is compiled for across its builds (first origin of each arch), and
// whether none is known (every build decides at build time, or no build compiles it).
std::vector<TargetArch> archs_of(const BuildGraph& g, const std::string& display_path, bool& unknown);
// The oldest toolkit among a source's builds that name one: the one a newer feature fails on.
MaybeFact<domain::CudaVersion> oldest_cuda(const BuildGraph& g, const std::string& display_path);

// "sm_80", or "compute_80" for PTX only.
std::string arch_name(const TargetArch& t);

}  // namespace cudalint::model
