// The build graph's targets (build_graph.h), from each kind of build file.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "analyzer/core/source_file.h"
#include "analyzer/model/project_model.h"

namespace cudalint::model {

// A display path's absolute path.
using PathOf = std::function<std::string(const std::string& display_path)>;

// Each CUDAExtension of each setup.py (a setup.py whose extensions are made elsewhere: one
// target that may compile anything under its directory, archs unknown).
void add_setup_targets(const ProjectModel& m, const PathOf& abs, std::vector<BuildTarget>& out);
// The setup.py extension `bt` declares (its call at bt.where), evaluated again for one build:
// its environment (setup.py's own settings first; a variable it does not give is unset) and
// toolkit. The target with the flags and archs that build gives it; nullopt when the build does
// not resolve its nvcc flags either, or does not make the extension.
std::optional<BuildTarget> setup_target_for_build(const BuildTarget& bt, std::string_view setup_text,
                                                  const std::vector<std::pair<std::string, Fact<std::string>>>& env,
                                                  const std::vector<std::string>& env_unknown,
                                                  const MaybeFact<domain::CudaVersion>& cuda);
// One CompileFlags per distinct list of CMake definitions, shared by the targets that have it:
// each configuration of a CMake tree makes its targets again (whisper.cpp: 34 configurations,
// 14,019 targets, whose own copies of their definitions were about 50 MB).
class CmakeFlagsPool {
 public:
  std::shared_ptr<const cuda::CompileFlags> with_defines(std::vector<std::string> defines);

 private:
  std::map<std::vector<std::string>, std::shared_ptr<const cuda::CompileFlags>> by_defines_;
};

// Each target of a CMake project as evaluated (`only_invocation`: evaluated with that
// invocation's -D values); the project as one target when none is known.
void add_cmake_targets(const cmake::Facts& f, const std::string& top_level, const std::string& top_abs,
                       std::optional<size_t> only_invocation, CmakeFlagsPool& pool, std::vector<BuildTarget>& out);
// Each compile_commands.json entry of a CUDA source in the tree.
void add_compile_db_targets(const std::vector<std::pair<const SourceFile*, std::string>>& sources,
                            std::vector<BuildTarget>& out);
// Each torch.utils.cpp_extension load()/load_inline() in a Python file.
void add_jit_targets(const ProjectModel& m, const PathOf& abs, const std::function<bool(const std::string&)>& exists,
                     const std::string& root, std::vector<BuildTarget>& out);

}  // namespace cudalint::model
