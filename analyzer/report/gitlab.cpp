// GitLab Code Quality report (the `codequality` artifact): a JSON array of issues with
// description, check_name, fingerprint, severity and location.path + location.lines.begin.
// GitLab compares fingerprints between the merge request and its base to mark issues new or
// fixed, and shows only one issue per fingerprint, so each must be unique and stable when
// lines move: it hashes the rule, the path, the line's content hash and the column.
#include <map>
#include <string>
#include <string_view>

#include "analyzer/report/report.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MD5.h"
#include "llvm/Support/raw_os_ostream.h"

namespace cudalint::report {
namespace {

namespace json = llvm::json;

json::Value str(std::string_view s) {
  if (json::isUTF8(s)) return std::string(s);
  return json::fixUTF8(s);
}

// GitLab's levels are info, minor, major, critical and blocker.
std::string_view gitlab_severity(Severity s) {
  switch (s) {
    case Severity::Error: return "critical";
    case Severity::Warning: return "major";
    case Severity::Info: return "info";
  }
  return "major";
}

std::string md5_hex(std::string_view s) {
  llvm::MD5 h;
  h.update(llvm::StringRef(s.data(), s.size()));
  llvm::MD5::MD5Result r;
  h.final(r);
  return std::string(r.digest().str());
}

}  // namespace

void write_gitlab(std::ostream& out, const std::vector<Finding>& findings, const RunInfo& /*run*/) {
  llvm::raw_os_ostream os(out);
  json::OStream j(os, 2);
  std::map<std::string, int> seen;  // key → how many findings had it (uniqueness)
  j.array([&] {
    for (const auto& f : findings) {
      std::string id = f.rule ? std::string(f.rule->id) : std::string("cudalint");
      const Region& r = f.location.region;
      // The line hash ("<hex>:<n>") already tells identical lines apart; without one, the line number.
      std::string line_key = f.line_hash.empty() ? "L" + std::to_string(r.start_line) : f.line_hash;
      std::string key = id + '\0' + f.location.path + '\0' + line_key + '\0' + std::to_string(r.start_column);
      int n = seen[key]++;
      if (n) key += '\0' + std::to_string(n);
      j.object([&] {
        j.attribute("description", str(f.message + " [" + id + "]"));
        j.attribute("check_name", str(id));
        j.attribute("fingerprint", md5_hex(key));
        j.attribute("severity", std::string(gitlab_severity(f.severity)));
        j.attributeObject("location", [&] {
          j.attribute("path", str(f.location.path));
          j.attributeObject("lines", [&] { j.attribute("begin", static_cast<int64_t>(r.start_line)); });
        });
      });
    }
  });
  os << "\n";
  os.flush();
}

}  // namespace cudalint::report
