// GitHub Actions workflow commands: one `::error|warning|notice ...::message` line per finding,
// which the runner turns into annotations on the pull request.
#include <string>
#include <string_view>

#include "analyzer/report/report.h"

namespace cudalint::report {
namespace {

// The runner splits commands at line breaks and unescapes %XX, so these must be encoded.
std::string escape_data(std::string_view s) {
  std::string out;
  for (char c : s) {
    switch (c) {
      case '%': out += "%25"; break;
      case '\r': out += "%0D"; break;
      case '\n': out += "%0A"; break;
      default: out += c;
    }
  }
  return out;
}

// Property values are also split at ',' and end at "::".
std::string escape_property(std::string_view s) {
  std::string out;
  for (char c : s) {
    switch (c) {
      case '%': out += "%25"; break;
      case '\r': out += "%0D"; break;
      case '\n': out += "%0A"; break;
      case ':': out += "%3A"; break;
      case ',': out += "%2C"; break;
      default: out += c;
    }
  }
  return out;
}

std::string_view command(Severity s) {
  switch (s) {
    case Severity::Error: return "error";
    case Severity::Warning: return "warning";
    case Severity::Info: return "notice";
  }
  return "warning";
}

}  // namespace

void write_github(std::ostream& out, const std::vector<Finding>& findings, const RunInfo& /*run*/) {
  std::string buf;
  for (const auto& f : findings) {
    const Region& r = f.location.region;
    buf += "::" + std::string(command(f.severity));
    buf += " file=" + escape_property(f.location.path);
    buf += ",line=" + std::to_string(r.start_line);
    buf += ",col=" + std::to_string(r.start_column);
    buf += ",endLine=" + std::to_string(r.end_line);
    buf += ",endColumn=" + std::to_string(r.end_column);
    if (f.rule) {
      buf += ",title=" + escape_property(std::string(f.rule->id) + " " + std::string(f.rule->name));
    }
    buf += "::" + escape_data(f.message) + "\n";
  }
  out << buf;
}

}  // namespace cudalint::report
