// CI jobs as builds: each (job, matrix combination) of a GitHub Actions workflow or GitLab CI file runs
// its steps in order on one machine, which is what a Dockerfile stage does with its RUNs. The
// job is written as such a stage (FROM its container, ENV from `env:`, COPY of the checkout,
// RUN per `run:` step with the step's `env:` exported and its working directory entered) and
// read by the Dockerfile model, so CI steps get the same invocation facts: compile steps, CMake
// -D values, torch installs and the toolkit. Every value keeps its bytes in the workflow file.
#pragma once

#include <string>

#include "analyzer/core/source_file.h"
#include "analyzer/frontends/ci/workflow.h"
#include "analyzer/frontends/dockerfile/dockerfile.h"
#include "analyzer/model/docker_build.h"

namespace cudalint::model {

// Where a job's checkout lands: `actions/checkout` copies the repository there.
inline constexpr std::string_view kCiWorkspace = "/github/workspace";

struct CiWorkflowUnit {
  const SourceFile* file = nullptr;
  docker::Dockerfile ast;  // the jobs written as stages
  DockerBuild build;
};

// Stages named `job` or `job (key=value, ...)` per matrix combination.
docker::Dockerfile ci_as_dockerfile(std::string_view file_text, const ci::Workflow& wf);

CiWorkflowUnit extract_ci_build(const SourceFile& file, const ci::Workflow& wf);

}  // namespace cudalint::model
