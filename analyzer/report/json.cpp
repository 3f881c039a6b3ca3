// cudalint's own JSON schema, documented in docs/json-format.md. Keys are written in a fixed
// order (OStream streams them as called) so that output is byte-stable for scripts and goldens.
#include <cstdint>
#include <string>
#include <string_view>

#include "analyzer/report/report.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_os_ostream.h"

namespace cudalint::report {
namespace {

namespace json = llvm::json;

// json::Value asserts on invalid UTF-8; messages can quote file bytes, so repair instead.
json::Value str(std::string_view s) {
  if (json::isUTF8(s)) return std::string(s);
  return json::fixUTF8(s);
}

json::Value optional_str(std::string_view s) { return s.empty() ? json::Value(nullptr) : str(s); }

json::Value num(uint64_t n) { return static_cast<int64_t>(n); }

void write_region(json::OStream& j, const Region& r) {
  j.object([&] {
    j.attribute("start_line", num(r.start_line));
    j.attribute("start_column", num(r.start_column));
    j.attribute("end_line", num(r.end_line));
    j.attribute("end_column", num(r.end_column));
  });
}

void write_finding(json::OStream& j, const Finding& f) {
  j.object([&] {
    j.attribute("rule", f.rule ? str(f.rule->id) : json::Value(nullptr));
    j.attribute("name", f.rule ? str(f.rule->name) : json::Value(nullptr));
    j.attribute("severity", str(to_string(f.severity)));
    j.attribute("message", str(f.message));
    j.attribute("path", str(f.location.path));
    j.attributeBegin("region");
    write_region(j, f.location.region);
    j.attributeEnd();
    j.attributeArray("related", [&] {
      for (const auto& r : f.related) {
        j.object([&] {
          j.attribute("path", str(r.location.path));
          j.attributeBegin("region");
          write_region(j, r.location.region);
          j.attributeEnd();
          j.attribute("message", str(r.message));
        });
      }
    });
    if (f.fix) {
      j.attributeObject("fix", [&] {
        j.attribute("title", str(f.fix->title));
        j.attribute("applicability", str(to_string(f.fix->applicability)));
        j.attributeArray("edits", [&] {
          for (const auto& e : f.fix->edits) {
            j.object([&] {
              j.attributeBegin("region");
              write_region(j, e.region);
              j.attributeEnd();
              j.attribute("replacement", str(e.replacement));
            });
          }
        });
      });
    } else {
      j.attribute("fix", nullptr);
    }
    j.attribute("fingerprint", optional_str(f.line_hash));
  });
}

}  // namespace

void write_json(std::ostream& out, const std::vector<Finding>& findings, const RunInfo& run) {
  size_t errors = 0, warnings = 0, infos = 0, fixable = 0;
  for (const auto& f : findings) {
    (f.severity == Severity::Error ? errors : f.severity == Severity::Warning ? warnings : infos)++;
    if (f.fix && f.fix->applicability == Applicability::Safe) ++fixable;  // what --fix applies
  }
  llvm::raw_os_ostream os(out);
  {
    json::OStream j(os, 2);
    j.object([&] {
      j.attribute("version", 1);
      j.attributeObject("tool", [&] {
        j.attribute("name", str(run.tool_name));
        j.attribute("version", str(run.tool_version));
      });
      j.attributeArray("findings", [&] {
        for (const auto& f : findings) write_finding(j, f);
      });
      j.attributeArray("notes", [&] {
        for (const auto& n : run.notes)
          j.object([&] {
            j.attribute("path", str(n.path));
            j.attribute("message", str(n.message));
          });
      });
      j.attributeObject("summary", [&] {
        j.attribute("files_checked", num(run.files_checked));
        j.attribute("errors", num(errors));
        j.attribute("warnings", num(warnings));
        j.attribute("infos", num(infos));
        j.attribute("fixable", num(fixable));
      });
    });
  }
  os << "\n";
  os.flush();
}

}  // namespace cudalint::report
