// GitHub Actions workflow front-end: the jobs, their matrix, environment, container and steps.
// Reads YAML with LLVM's parser; never runs anything.
#pragma once

#include <string_view>

#include "analyzer/frontends/ci/workflow.h"

namespace cudalint::ci {

// Never throws. A file that is not a workflow (no `jobs` mapping) gives an empty workflow.
ParseResult parse_github_workflow(std::string_view text);

}  // namespace cudalint::ci
