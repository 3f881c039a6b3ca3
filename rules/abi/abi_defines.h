// Every `_GLIBCXX_USE_CXX11_ABI` value a project sets, from setup.py and CMake.
#pragma once

#include <string>
#include <vector>

#include "analyzer/model/project_model.h"

namespace cudalint::rules::abi {

struct AbiDefine {
  int value = 0;         // 0 or 1
  Origin origin;
  std::string where;     // "setup.py extension `ext`", "CMake target `t`"
  std::string project_file;  // setup.py / top-level CMakeLists.txt (display path)
  std::string target;        // extension or CMake target name; "" for every target of the project
};

std::vector<AbiDefine> all_abi_defines(const model::ProjectModel& model);

// The torch of each invocation that builds a target the define applies to, where that torch is
// known (model::Invocation::torch), with its CUDA variant. One entry per distinct pin origin.
struct BuildTorch {
  model::Fact<domain::TorchVersion> torch;
  std::optional<domain::CudaVersion> cuda_variant;
};
std::vector<BuildTorch> torches_building(const model::BuildGraph& graph, const AbiDefine& def);

}  // namespace cudalint::rules::abi
