// What a Python build file is evaluated under, for one build (an invocation's environment and
// toolkit): without it, environment reads and subprocess output are unknown.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>

namespace cudalint::python {

struct EvalContext {
  // A variable's value, nullopt inside when it is unset; the outer optional is empty when the
  // build's value for it is not known.
  std::function<std::optional<std::optional<std::string>>(std::string_view)> env;
  std::optional<std::string> nvcc_release;  // "13.0": what `nvcc -V` says, when the toolkit is known
  bool linux = false;  // the build runs on Linux: sys.platform, os.name, platform.system(), IS_WINDOWS
};

}  // namespace cudalint::python
