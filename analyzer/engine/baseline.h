// Baselines: accept existing findings, fail only on new ones. Entries match by rule, path and
// a hash of the finding's line content (whitespace ignored), each entry at most once, so edits
// that shift lines or change neighbouring lines keep matching.
#pragma once

#include <string>
#include <vector>

#include "analyzer/core/finding.h"

namespace cudalint {

struct BaselineEntry {
  std::string rule;
  std::string path;
  std::string hash;     // content hash of the finding's line
  std::string message;  // informative only
};

struct Baseline {
  std::vector<BaselineEntry> entries;
};

// Returns false and sets `error` (naming the file and the reason) when unreadable or invalid.
bool read_baseline(const std::string& fs_path, Baseline& out, std::string& error);
bool write_baseline(const std::string& fs_path, const std::vector<Finding>& findings, std::string& error);
// Removes findings present in the baseline (each entry matches at most one finding).
// Returns how many were removed.
size_t filter_baseline(const Baseline& baseline, std::vector<Finding>& findings);

// Writes `content` to `fs_path` atomically (temporary file in the same directory + rename),
// keeping the permissions of an existing file. A device or pipe there (`/dev/null`,
// `/dev/stdout`, a FIFO) is written in place.
bool write_file_atomically(const std::string& fs_path, std::string_view content, std::string& error);

}  // namespace cudalint
