#include "analyzer/engine/suppress.h"

#include <algorithm>

#include <fmt/format.h>

namespace cudalint {

namespace {

bool is_space(char c) { return c == ' ' || c == '\t'; }

bool is_id_char(char c) {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '-';
}

// Finds a comment leader on the line that is followed (after spaces) by "cudalint:".
// Returns the leader's offset within the line, or npos.
size_t find_directive(std::string_view line, std::string_view leader, size_t& directive_at) {
  size_t from = 0;
  while (true) {
    size_t p = line.find(leader, from);
    if (leader == "//") {
      size_t q = line.find("/*", from);
      if (q != std::string_view::npos && (p == std::string_view::npos || q < p)) p = q;
    }
    if (p == std::string_view::npos) return p;
    size_t k = p + 2 - (leader == "#" ? 1 : 0);
    while (k < line.size() && is_space(line[k])) ++k;
    if (line.substr(k).starts_with("cudalint:")) {
      directive_at = k;
      return p;
    }
    from = p + 1;
  }
}

}  // namespace

std::vector<Suppression> parse_suppressions(const SourceFile& file) {
  std::vector<Suppression> out;
  std::string_view leader = comment_leader(file.kind);
  if (leader.empty()) return out;
  std::string_view text = file.text;
  if (text.find("cudalint:") == std::string_view::npos) return out;  // fast path
  std::vector<uint32_t> pending;  // indices of standalone suppressions awaiting their line
  for (uint32_t ln = 1; ln <= file.lines.line_count(); ++ln) {
    std::string_view line = file.lines.line_text(text, ln);
    uint32_t base = file.lines.line_start(ln);
    size_t dir = 0;
    size_t lead = line.find("cudalint:") == std::string_view::npos ? std::string_view::npos
                                                                    : find_directive(line, leader, dir);
    if (lead == std::string_view::npos) {
      for (uint32_t i : pending) out[i].target_line = ln;
      pending.clear();
      continue;
    }
    size_t k = dir + 9;  // after "cudalint:"
    while (k < line.size() && is_space(line[k])) ++k;
    Suppression s;
    std::string_view rest = line.substr(k);
    size_t kw_len = 0;
    if (rest.starts_with("ignore-file")) { s.file_wide = true; kw_len = 11; }
    else if (rest.starts_with("ignore")) kw_len = 6;
    else {
      for (uint32_t i : pending) out[i].target_line = ln;
      pending.clear();
      continue;  // some other cudalint: text (e.g. a fixture's expect:) is not a suppression
    }
    size_t end = k + kw_len;
    if (end < line.size() && line[end] == '[') {
      size_t close = line.find(']', end);
      size_t stop = close == std::string_view::npos ? line.size() : close;
      size_t i = end + 1;
      while (i < stop) {
        while (i < stop && (is_space(line[i]) || line[i] == ',')) ++i;
        size_t b = i;
        while (i < stop && is_id_char(line[i])) ++i;
        if (i > b)
          s.ids.push_back({std::string(line.substr(b, i - b)),
                           {base + static_cast<uint32_t>(b), base + static_cast<uint32_t>(i)}, false});
        else if (i < stop) ++i;  // skip a stray character
      }
      end = close == std::string_view::npos ? line.size() : close + 1;
    }
    s.ids_missing = s.ids.empty();
    s.directive = {base + static_cast<uint32_t>(dir), base + static_cast<uint32_t>(end)};
    bool standalone = line.substr(0, lead).find_first_not_of(" \t") == std::string_view::npos;
    if (standalone) {
      // Remove the whole line including its terminator.
      uint32_t next = ln < file.lines.line_count() ? file.lines.line_start(ln + 1) : static_cast<uint32_t>(text.size());
      s.removal = {base, next};
    } else {
      size_t b = lead;
      while (b > 0 && is_space(line[b - 1])) --b;
      size_t e = end;
      if (leader == "//" && line.substr(lead).starts_with("/*")) {
        size_t c = line.find("*/", end);
        e = c == std::string_view::npos ? line.size() : c + 2;
      }
      s.removal = {base + static_cast<uint32_t>(b), base + static_cast<uint32_t>(e)};
    }
    if (s.file_wide) {
      out.push_back(std::move(s));
    } else if (standalone) {
      s.target_line = ln + 1;  // refined when the next non-suppression line is seen
      out.push_back(std::move(s));
      pending.push_back(static_cast<uint32_t>(out.size() - 1));
    } else {
      s.target_line = ln;
      for (uint32_t i : pending) out[i].target_line = ln;
      pending.clear();
      out.push_back(std::move(s));
    }
  }
  return out;
}

void apply_suppressions(const SourceFile& file, std::vector<Suppression>& sups, std::vector<Diagnostic>& diags,
                        const std::function<bool(std::string_view)>& rule_known,
                        const std::function<bool(std::string_view)>& rule_enabled,
                        const RuleInfo& unused_info, const RuleInfo& invalid_info) {
  if (sups.empty()) return;
  std::vector<Diagnostic> kept;
  for (auto& d : diags) {
    bool suppressed = false;
    uint32_t line = file.lines.line_of(d.where.span.begin);
    for (auto& s : sups) {
      if (!s.file_wide && s.target_line != line) continue;
      for (auto& id : s.ids) {
        if (id.id == d.rule->id) {
          id.used = true;
          suppressed = true;
        }
      }
    }
    if (!suppressed) kept.push_back(std::move(d));
  }
  diags = std::move(kept);

  for (const auto& s : sups) {
    if (s.ids_missing) {
      diags.push_back({&invalid_info, invalid_info.default_severity, {file.path, s.directive},
                       "suppression without rule ids: write `cudalint: ignore[ID]` with the ids to suppress",
                       {}, std::nullopt});
      continue;
    }
    std::vector<const SuppressionId*> unused;
    for (const auto& id : s.ids) {
      if (!rule_known(id.id)) {
        diags.push_back({&invalid_info, invalid_info.default_severity, {file.path, id.span},
                         fmt::format("unknown rule id `{}` in suppression", id.id), {}, std::nullopt});
        continue;
      }
      if (!id.used && rule_enabled(id.id)) unused.push_back(&id);
    }
    for (const SuppressionId* id : unused) {
      Diagnostic d{&unused_info, unused_info.default_severity, {file.path, id->span},
                   fmt::format("unused suppression: `{}` reported nothing here", id->id), {}, std::nullopt};
      Fix fix;
      fix.applicability = Applicability::Safe;
      if (unused.size() == s.ids.size()) {
        fix.title = "Remove the suppression comment";
        fix.edits.push_back({s.removal, ""});
      } else {
        // Drop this id and one adjacent separator.
        std::string_view t = file.text;
        uint32_t b = id->span.begin, e = id->span.end;
        while (e < s.directive.end && (t[e] == ',' || t[e] == ' ')) ++e;
        if (e < s.directive.end && t[e] == ']')  // last id: eat the separator before it
          while (b > s.directive.begin && (t[b - 1] == ',' || t[b - 1] == ' ')) --b;
        fix.title = fmt::format("Remove `{}` from the suppression", id->id);
        fix.edits.push_back({{b, e}, ""});
      }
      d.fix = std::move(fix);
      diags.push_back(std::move(d));
    }
  }
}

}  // namespace cudalint
