// One analysis run: discover → load and parse in parallel → model → rules → suppressions →
// resolved, sorted findings. The CLI and the LSP server call this; it prints nothing.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "analyzer/core/finding.h"
#include "analyzer/core/source_file.h"
#include "analyzer/engine/selection.h"
#include "analyzer/model/build_graph.h"

namespace cudalint {

namespace cuda {
class PreludeCache;
}
class DiskCache;

struct RunOptions {
  std::vector<std::string> paths;            // files or directories; empty = {"."}
  std::string root;                          // absolute run root; "" = the cwd
  std::optional<std::string> config_file;    // --config: used for every file
  CliSelection cli;
  std::optional<std::string> target_archs;   // --target-archs (TORCH_CUDA_ARCH_LIST syntax)
  unsigned jobs = 0;                         // 0 = all cores
  bool respect_gitignore = true;
  std::optional<std::string> only_rule;      // run and report only this rule (fixture harness)
  // Absolute path → text that replaces the file's (editors' unsaved buffers, --stdin-filename).
  // A path named in `paths` that has an overlay need not exist on disk.
  std::map<std::string, std::string> overlays;
  // Editors: parse only these CUDA sources (absolute paths) with Clang; the others still count
  // for the build model. Unset = all.
  std::optional<std::set<std::string>> cuda_sources;
  // Editors: read nothing outside `root` (no configuration above it, no CMake includes
  // outside it).
  bool confine_to_root = false;
  // Tests only: called once between discovery and loading with the absolute paths found, so
  // that a file deleted or changed mid-run is a deterministic case.
  std::function<void(const std::vector<std::string>&)> after_discovery;
  // Editors: precompiled CUDA preludes kept across runs (null: each run builds its own when
  // it parses enough files to gain from them).
  cuda::PreludeCache* prelude_cache = nullptr;
  // The on-disk cache (graph-break summaries, precompiled preludes); null: none.
  const DiskCache* disk_cache = nullptr;
  // `cudalint build-graph`: build the model's build graph and stop (no CUDA parse, no rules).
  bool graph_only = false;
  // Editors' first pass: parse each CUDA source for its newest arch only (the findings of its
  // other archs follow from a full run).
  bool cuda_newest_arch_only = false;
  // Editors: the loaded headers (absolute paths) where an includer's uses are reported; a use in
  // another header is reported at the parsed source's `#include` line, as for a header that is
  // not loaded. Unset: every loaded header (the command line).
  std::optional<std::set<std::string>> headers_in_place;
};

// A fix together with the file it edits (byte spans), for --fix.
struct PendingFix {
  std::string fs_path;
  std::string display_path;
  Fix fix;
};

struct RunOutput {
  std::vector<Finding> findings;             // sorted; suppressions applied
  std::vector<PendingFix> fixes;             // fixes of the reported findings
  bool config_error = false;                 // a CONF diagnostic: exit 2
  size_t files_checked = 0;
  // display path → every loaded file (for --fix and tests)
  std::map<std::string, std::shared_ptr<const SourceFile>> sources;
  model::BuildGraph graph;  // which builds compile each CUDA source (graph_only runs)
  // (display path, note) of what the analysis could not check and no rule reports, sorted;
  // only for files whose findings are reported (not context-only ones).
  std::vector<std::pair<std::string, std::string>> notes;
  // With cuda_newest_arch_only: some CUDA source has archs this run did not parse.
  bool archs_left = false;
  // Absolute path of each parsed CUDA source → the loaded headers (absolute paths) its parses
  // found feature uses in, whether or not they were reported there (headers_in_place).
  std::map<std::string, std::set<std::string>> cuda_header_uses;
};

RunOutput run_analysis(const RunOptions& opts);

// The size limit (max-file-size) that a run with `opts` applies to the file at `abs_path`: that
// of the configuration governing it, else kDefaultMaxFileBytes.
uint64_t max_file_bytes_for(const RunOptions& opts, const std::string& abs_path);

// Whether a string is "ALL", a family ("ARCH"), a prefix ("ARCH0") or an id.
bool is_rule_selector(std::string_view s);

}  // namespace cudalint
