// SARIF 2.1.0 for GitHub code scanning and other viewers (design: integrations.md §1).
// One run per file, every registered rule listed, no timestamps: byte-stable output.
#include <algorithm>
#include <cctype>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "analyzer/core/text.h"
#include "analyzer/report/report.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_os_ostream.h"

namespace cudalint::report {
namespace {

namespace json = llvm::json;

constexpr std::string_view kSchemaUri = "https://json.schemastore.org/sarif-2.1.0.json";
constexpr std::string_view kSrcRoot = "%SRCROOT%";
// GitHub rejects rule descriptions longer than this (integrations.md §1.4).
constexpr size_t kMaxDescriptionChars = 1024;

// json::Value asserts on invalid UTF-8; messages can quote file bytes, so repair instead.
json::Value str(std::string_view s) {
  if (json::isUTF8(s)) return std::string(s);
  return json::fixUTF8(s);
}

json::Value num(uint64_t n) { return static_cast<int64_t>(n); }

std::string_view level(Severity s) {
  switch (s) {
    case Severity::Error: return "error";
    case Severity::Warning: return "warning";
    case Severity::Info: return "note";
  }
  return "warning";
}

// GitHub's non-security severities (integrations.md §1.1).
std::string_view problem_severity(Severity s) {
  switch (s) {
    case Severity::Error: return "error";
    case Severity::Warning: return "warning";
    case Severity::Info: return "recommendation";
  }
  return "warning";
}

bool is_continuation(char c) { return (static_cast<unsigned char>(c) & 0xC0) == 0x80; }

// Cuts to at most `max_chars` code points, marking a cut with an ellipsis.
std::string truncate_chars(std::string_view s, size_t max_chars) {
  size_t total = std::count_if(s.begin(), s.end(), [](char c) { return !is_continuation(c); });
  if (total <= max_chars) return std::string(s);
  size_t chars = 0, i = 0;
  for (; i < s.size(); ++i) {
    if (!is_continuation(s[i]) && chars++ == max_chars - 1) break;
  }
  return std::string(s.substr(0, i)) + "\xE2\x80\xA6";
}

char hex_digit(unsigned v) { return "0123456789ABCDEF"[v & 0xF]; }

void percent_encode(std::string& out, unsigned char b) {
  out += '%';
  out += hex_digit(b >> 4);
  out += hex_digit(b);
}

// RFC 3986: everything but unreserved characters and the path separator is encoded, so
// ':' ',' '#' '%' and non-ASCII bytes in file names cannot change the URI's meaning.
std::string encode_path(std::string_view path) {
  std::string out;
  for (char ch : path) {
    auto b = static_cast<unsigned char>(ch);
    bool unreserved = (b >= 'A' && b <= 'Z') || (b >= 'a' && b <= 'z') || (b >= '0' && b <= '9') ||
                      b == '-' || b == '.' || b == '_' || b == '~' || b == '/';
    if (unreserved) out += ch;
    else percent_encode(out, b);
  }
  return out;
}

// root_uri arrives as a URI, but callers build it by concatenation; encode only bytes that
// can never appear in a URI, which leaves an already valid URI unchanged.
std::string normalize_uri(std::string_view uri) {
  std::string out;
  for (char ch : uri) {
    auto b = static_cast<unsigned char>(ch);
    if (b <= 0x20 || b >= 0x7F || std::string_view("\"<>\\^`{|}").find(ch) != std::string_view::npos)
      percent_encode(out, b);
    else
      out += ch;
  }
  return out;
}

// SARIF requires positive line and column numbers (schema minimum 1).
uint32_t at_least_1(uint32_t v) { return v == 0 ? 1 : v; }

class SarifWriter {
 public:
  SarifWriter(json::OStream& j, const RunInfo& run) : j_(j), run_(run) {
    for (const auto& e : run.rules)
      if (e.info) rules_.push_back(e);
    // ruleIndex must agree with rules[]; sort here rather than trust the caller.
    std::stable_sort(rules_.begin(), rules_.end(),
                     [](const RuleEntry& a, const RuleEntry& b) { return a.info->id < b.info->id; });
    for (size_t i = 0; i < rules_.size(); ++i) index_.emplace(rules_[i].info->id, i);
  }

  void write(const std::vector<Finding>& findings) {
    j_.object([&] {
      j_.attribute("$schema", str(kSchemaUri));
      j_.attribute("version", "2.1.0");
      j_.attributeArray("runs", [&] { j_.object([&] { write_run(findings); }); });
    });
  }

 private:
  void write_run(const std::vector<Finding>& findings) {
    const std::string root = normalize_uri(run_.root_uri);
    j_.attributeObject("tool", [&] {
      j_.attributeObject("driver", [&] {
        j_.attribute("name", str(run_.tool_name));
        // GitHub treats empty strings as missing, and the schema wants URIs to be URIs.
        if (!run_.tool_version.empty()) {
          j_.attribute("version", str(run_.tool_version));
          j_.attribute("semanticVersion", str(run_.tool_version));
        }
        if (!run_.information_uri.empty()) j_.attribute("informationUri", str(run_.information_uri));
        j_.attributeArray("rules", [&] {
          for (const auto& e : rules_) write_rule(e);
        });
      });
    });
    j_.attributeObject("automationDetails", [&] { j_.attribute("id", str(run_.tool_name + "/")); });
    if (!root.empty()) {
      j_.attributeObject("originalUriBaseIds", [&] {
        j_.attributeObject(kSrcRoot, [&] { j_.attribute("uri", str(root)); });
      });
    }
    j_.attributeArray("invocations", [&] {
      j_.object([&] {
        j_.attribute("executionSuccessful", run_.execution_successful);
        if (!root.empty()) j_.attributeObject("workingDirectory", [&] { j_.attribute("uri", str(root)); });
      });
    });
    j_.attribute("columnKind", "utf16CodeUnits");
    j_.attributeArray("results", [&] {
      for (const auto& f : findings) write_result(f);
    });
  }

  void write_rule(const RuleEntry& e) {
    const RuleInfo& r = *e.info;
    std::string full = doc_what_it_does(e.doc);
    if (full.empty()) full = std::string(r.summary);  // required by GitHub, so never empty
    j_.object([&] {
      j_.attribute("id", str(r.id));
      j_.attribute("name", str(r.name));
      j_.attributeObject("shortDescription",
                         [&] { j_.attribute("text", str(truncate_chars(r.summary, kMaxDescriptionChars))); });
      j_.attributeObject("fullDescription",
                         [&] { j_.attribute("text", str(truncate_chars(full, kMaxDescriptionChars))); });
      j_.attributeObject("help", [&] {
        j_.attribute("text", str(e.doc.empty() ? r.summary : e.doc));
        if (!e.doc.empty()) j_.attribute("markdown", str(e.doc));
      });
      if (!run_.help_uri_base.empty() && !e.doc_path.empty())
        j_.attribute("helpUri", str(run_.help_uri_base + std::string(e.doc_path)));
      j_.attributeObject("defaultConfiguration", [&] { j_.attribute("level", str(level(r.default_severity))); });
      j_.attributeObject("properties", [&] {
        j_.attributeArray("tags", [&] {
          if (!r.family.empty()) j_.value(str(r.family));
        });
        j_.attribute("problem.severity", str(problem_severity(r.default_severity)));
      });
    });
  }

  void write_artifact(const std::string& path) {
    j_.attributeObject("artifactLocation", [&] {
      if (path.starts_with('/')) {
        // Outside the run root: an absolute URI, which must not carry a uriBaseId (§3.4.4).
        j_.attribute("uri", str("file://" + encode_path(path)));
      } else {
        j_.attribute("uri", str(encode_path(path)));
        j_.attribute("uriBaseId", str(kSrcRoot));
      }
    });
  }

  void write_region(std::string_view key, const Region& r) {
    j_.attributeObject(key, [&] {
      j_.attribute("startLine", num(at_least_1(r.start_line)));
      j_.attribute("startColumn", num(at_least_1(r.start_column)));
      j_.attribute("endLine", num(at_least_1(r.end_line)));
      j_.attribute("endColumn", num(at_least_1(r.end_column)));
    });
  }

  void write_physical(const Location& l) {
    j_.attributeObject("physicalLocation", [&] {
      write_artifact(l.path);
      write_region("region", l.region);
    });
  }

  void write_result(const Finding& f) {
    j_.object([&] {
      if (f.rule) {
        j_.attribute("ruleId", str(f.rule->id));
        // A rule missing from rules[] gets no index rather than a wrong one.
        auto it = index_.find(f.rule->id);
        if (it != index_.end()) j_.attribute("ruleIndex", num(it->second));
      }
      j_.attribute("level", str(level(f.severity)));
      j_.attributeObject("message", [&] { j_.attribute("text", str(f.message)); });
      j_.attributeArray("locations", [&] { j_.object([&] { write_physical(f.location); }); });
      if (!f.related.empty()) {
        j_.attributeArray("relatedLocations", [&] {
          for (size_t i = 0; i < f.related.size(); ++i) {
            const auto& r = f.related[i];
            j_.object([&] {
              j_.attribute("id", num(i + 1));  // ids let a message link "[text](1)"
              write_physical(r.location);
              if (!r.message.empty()) j_.attributeObject("message", [&] { j_.attribute("text", str(r.message)); });
            });
          }
        });
      }
      if (!f.line_hash.empty()) {
        j_.attributeObject("partialFingerprints",
                           [&] { j_.attribute("primaryLocationLineHash", str(f.line_hash)); });
      }
      // The schema requires at least one replacement, so a fix without edits is left out.
      if (f.fix && !f.fix->edits.empty()) {
        j_.attributeArray("fixes", [&] {
          j_.object([&] {
            j_.attributeObject("description", [&] { j_.attribute("text", str(f.fix->title)); });
            j_.attributeArray("artifactChanges", [&] {
              j_.object([&] {
                write_artifact(f.location.path);
                j_.attributeArray("replacements", [&] {
                  for (const auto& e : f.fix->edits) {
                    j_.object([&] {
                      write_region("deletedRegion", e.region);
                      j_.attributeObject("insertedContent", [&] { j_.attribute("text", str(e.replacement)); });
                    });
                  }
                });
              });
            });
          });
        });
      }
    });
  }

  json::OStream& j_;
  const RunInfo& run_;
  std::vector<RuleEntry> rules_;
  std::map<std::string_view, size_t> index_;
};

std::string_view trim(std::string_view s) {
  size_t b = s.find_first_not_of(" \t\r");
  if (b == std::string_view::npos) return {};
  return s.substr(b, s.find_last_not_of(" \t\r") - b + 1);
}

using text::iequals;

}  // namespace

void write_sarif(std::ostream& out, const std::vector<Finding>& findings, const RunInfo& run) {
  llvm::raw_os_ostream os(out);
  {
    json::OStream j(os, 2);
    SarifWriter(j, run).write(findings);
  }
  os << "\n";
  os.flush();
}

std::string doc_what_it_does(std::string_view doc) {
  std::string out;
  bool in_section = false;
  size_t pos = 0;
  while (pos <= doc.size()) {
    size_t nl = doc.find('\n', pos);
    std::string_view line = trim(doc.substr(pos, nl == std::string_view::npos ? doc.npos : nl - pos));
    pos = nl == std::string_view::npos ? doc.size() + 1 : nl + 1;
    if (!in_section) {
      in_section = iequals(line, "## What it does");
      continue;
    }
    // The first paragraph ends at a blank line, a heading or a code fence.
    if (line.empty()) {
      if (out.empty()) continue;  // blank lines right after the heading
      break;
    }
    if (line.starts_with('#') || line.starts_with("```")) break;
    if (!out.empty()) out += ' ';
    out += line;
  }
  return out;
}

}  // namespace cudalint::report
