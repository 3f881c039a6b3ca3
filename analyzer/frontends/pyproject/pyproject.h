// pyproject.toml front-end (toml++): what a PEP 517 build of the project installs into its
// isolated build environment, and the project's own torch requirement.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "analyzer/core/diagnostic.h"

namespace cudalint::pyproject {

// One PEP 508 requirement string from a TOML array.
struct Requirement {
  std::string name;                  // normalised like pip: lower case, `_`/`.` → `-`
  std::string text;                  // as written, without markers
  Span span;                         // the TOML string, quotes included
  std::optional<std::string> exact;  // "2.3.0" for `torch==2.3.0` (no wildcard)
};

struct File {
  bool has_build_system = false;     // a [build-system] table is present
  Span build_system_span;            // its header
  std::optional<Span> requires_span;  // `requires = [...]`
  std::vector<Requirement> build_requires;
  std::optional<std::string> build_backend;
  std::vector<Requirement> dependencies;  // [project] dependencies
};

// Never throws. A file toml++ cannot parse yields an empty File: the config loader already
// reports the syntax error (CONF001) for every pyproject.toml it reads.
File parse(std::string_view text);

}  // namespace cudalint::pyproject
