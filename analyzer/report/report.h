// Reporters: pure functions from sorted findings to bytes. They see only core types.
#pragma once

#include <cstddef>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "analyzer/core/finding.h"
#include "analyzer/core/rule.h"

namespace cudalint::report {

struct RuleEntry {
  const RuleInfo* info = nullptr;
  std::string_view doc;  // the rule's Markdown doc (first line is "# name (ID)")
  std::string_view doc_path;  // that doc in the repository ("rules/arch/x.md"); "" when none
};

// What the analysis could not do on a file, which no rule reports (a kernel template nothing
// instantiates). In JSON always; in text output only with --verbose.
struct Note {
  std::string path;
  std::string message;
};

struct RunInfo {
  std::string tool_name = "cudalint";
  std::string tool_version;           // "0.1.0", "0.1.0-3-g1a2b3c4" (git describe)
  std::string information_uri;        // the repository: "https://github.com/cudalint/cudalint"
  std::string help_uri_base;          // rule docs: help_uri_base + RuleEntry::doc_path, e.g.
                                      // ".../blob/v0.1.0/" + "rules/arch/x.md"; no helpUri when either is empty
  std::string root_uri;               // "file:///abs/root/" (%SRCROOT%), with trailing slash
  std::vector<RuleEntry> rules;       // every registered rule, sorted by id
  size_t files_checked = 0;
  bool execution_successful = true;
  std::vector<Note> notes;            // sorted by path
};

struct TextOptions {
  bool color = false;        // ANSI colours (only on a TTY, decided by the caller)
  bool show_source = true;   // the source line and a caret under the range
  bool show_fix_hint = true; // "help: <fix title>" lines
  bool show_notes = false;   // RunInfo::notes (--verbose)
};

// `path:line:col: severity: message [ID]`, source line + carets, summary. Prints nothing
// at all when `findings` is empty.
void write_text(std::ostream& out, const std::vector<Finding>& findings, const RunInfo& run,
                const TextOptions& opts);
// Stable, documented schema (docs/json-format.md): {"version":1,"tool":...,"findings":[...],"summary":...}
void write_json(std::ostream& out, const std::vector<Finding>& findings, const RunInfo& run);
// SARIF 2.1.0, one run, validates against the OASIS schema.
void write_sarif(std::ostream& out, const std::vector<Finding>& findings, const RunInfo& run);
// GitHub Actions workflow commands (`::error file=...,line=...::message`).
void write_github(std::ostream& out, const std::vector<Finding>& findings, const RunInfo& run);
// GitLab Code Quality JSON (an array of issues with unique, line-shift-stable fingerprints).
void write_gitlab(std::ostream& out, const std::vector<Finding>& findings, const RunInfo& run);

// The first heading-free paragraph under "## What it does" of a rule doc (for SARIF
// fullDescription); falls back to the summary.
std::string doc_what_it_does(std::string_view doc);

}  // namespace cudalint::report
