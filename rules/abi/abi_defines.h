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
};

std::vector<AbiDefine> all_abi_defines(const model::ProjectModel& model);

}  // namespace cudalint::rules::abi
