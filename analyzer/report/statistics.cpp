#include "analyzer/report/statistics.h"

#include <algorithm>
#include <map>

#include <fmt/format.h>

namespace cudalint::report {

namespace {

std::string json_string(std::string_view s) {
  std::string out = "\"";
  for (char c : s) {
    unsigned char u = static_cast<unsigned char>(c);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (u < 0x20) {
      out += fmt::format("\\u{:04x}", u);
    } else {
      out += c;
    }
  }
  return out + "\"";
}

}  // namespace

std::vector<RuleCount> count_by_rule(const std::vector<Finding>& findings, bool unsafe_fixes) {
  std::map<std::string_view, RuleCount> by_id;
  for (const auto& f : findings) {
    if (!f.rule) continue;
    RuleCount& rc = by_id[f.rule->id];
    rc.rule = f.rule;
    ++rc.count;
    if (f.fix && !f.fix->edits.empty() &&
        (f.fix->applicability == Applicability::Safe ||
         (unsafe_fixes && f.fix->applicability == Applicability::Unsafe)))
      rc.fixable = true;
  }
  std::vector<RuleCount> out;
  out.reserve(by_id.size());
  for (auto& [id, rc] : by_id) out.push_back(rc);
  std::sort(out.begin(), out.end(), [](const RuleCount& a, const RuleCount& b) {
    if (a.count != b.count) return a.count > b.count;
    return a.rule->id < b.rule->id;
  });
  return out;
}

void write_statistics_text(std::ostream& out, const std::vector<RuleCount>& counts) {
  size_t count_width = 4, id_width = 0;
  bool any_fixable = false;
  for (const auto& rc : counts) {
    count_width = std::max(count_width, fmt::formatted_size("{}", rc.count));
    id_width = std::max(id_width, rc.rule->id.size());
    any_fixable = any_fixable || rc.fixable;
  }
  for (const auto& rc : counts) {
    std::string marker = any_fixable ? (rc.fixable ? "[*] " : "    ") : "";
    out << fmt::format("{:>{}} {:<{}} {}{}\n", rc.count, count_width, rc.rule->id, id_width, marker,
                       rc.rule->name);
  }
}

void write_statistics_json(std::ostream& out, const std::vector<RuleCount>& counts) {
  if (counts.empty()) {
    out << "[]\n";
    return;
  }
  out << "[\n";
  for (size_t i = 0; i < counts.size(); ++i) {
    const auto& rc = counts[i];
    out << fmt::format("  {{\"code\": {}, \"name\": {}, \"count\": {}, \"fixable\": {}}}{}\n",
                       json_string(rc.rule->id), json_string(rc.rule->name), rc.count,
                       rc.fixable ? "true" : "false", i + 1 < counts.size() ? "," : "");
  }
  out << "]\n";
}

}  // namespace cudalint::report
