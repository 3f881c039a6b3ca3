// GitLab CI front-end (`.gitlab-ci.yml`): jobs with their image, variables, `parallel: matrix:`
// and scripts (`before_script` then `script`), `extends:` of hidden templates and `default:`.
// `include:`d files are not read. Never runs anything.
#pragma once

#include <string_view>

#include "analyzer/frontends/ci/workflow.h"

namespace cudalint::ci {

// Never throws. Each job becomes one Job whose first step is the repository checkout GitLab
// makes before any script, and whose second step runs the job's scripts.
ParseResult parse_gitlab_ci(std::string_view text);

}  // namespace cudalint::ci
