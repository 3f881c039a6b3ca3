// requirements*.txt front-end (pip's requirements file format), exact for what the build
// model needs: requirement names and pins, index options, nested files.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "analyzer/core/diagnostic.h"

namespace cudalint::requirements {

struct Requirement {
  std::string name;                    // normalised: lower case, `_` and `.` → `-`
  std::string text;                    // the requirement as written (without markers/options)
  Span span;
  std::optional<std::string> exact;    // "2.3.0+cu121" for `name==2.3.0+cu121` (no wildcard)
  bool editable = false;               // -e
  bool url = false;                    // VCS URL or path, not a PyPI name
};

struct IndexOption {
  std::string url;
  Span span;                           // the URL
  bool extra = false;                  // --extra-index-url
};

struct File {
  std::vector<Requirement> requirements;
  std::vector<IndexOption> indexes;
  std::vector<std::pair<std::string, Span>> includes;  // -r / -c paths
};

// Handles `#` comments, `\` line continuations, `-i/--index-url`, `--extra-index-url`,
// `-f/--find-links`, `-r/-c`, `-e`, `--hash=...`, environment markers after `;`, extras
// `name[extra]`, URL requirements `name @ url`. Never throws.
File parse(std::string_view text);

std::string normalise_name(std::string_view name);

}  // namespace cudalint::requirements
