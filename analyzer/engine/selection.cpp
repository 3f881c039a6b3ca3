#include "analyzer/engine/selection.h"

namespace cudalint {

namespace {

int specificity(std::string_view selector) { return selector == "ALL" ? 0 : static_cast<int>(selector.size()); }

// Most specific matching selector, -1 when none matches.
int best_match(const std::vector<std::string>& sels, std::string_view id) {
  int best = -1;
  for (const auto& s : sels)
    if (selector_matches(s, id)) best = std::max(best, specificity(s));
  return best;
}

}  // namespace

bool selector_matches(std::string_view selector, std::string_view rule_id) {
  return selector == "ALL" || rule_id.starts_with(selector);
}

RuleSelection::RuleSelection(const config::Config* cfg, const CliSelection& cli) {
  if (cli.select) {
    on_ = *cli.select;
    default_set_ = false;
  } else if (cfg && cfg->select) {
    for (const auto& s : *cfg->select) on_.push_back(s.value);
    default_set_ = false;
  }
  if (cfg) {
    for (const auto& s : cfg->extend_select) on_.push_back(s.value);
    for (const auto& s : cfg->ignore) off_.push_back(s.value);
    for (const auto& p : cfg->per_file_ignores) {
      PerFile pf;
      if (!parse_glob(p.glob, pf.glob)) continue;
      for (const auto& s : p.selectors) pf.selectors.push_back(s);
      per_file_.push_back(std::move(pf));
    }
    for (const auto& [sel, sev] : cfg->severity) severity_.emplace_back(sel, sev.value);
  }
  on_.insert(on_.end(), cli.extend_select.begin(), cli.extend_select.end());
  off_.insert(off_.end(), cli.ignore.begin(), cli.ignore.end());
}

bool RuleSelection::enabled(const RuleInfo& rule, std::string_view rel) const {
  // Configuration errors always surface: a run with a config it cannot read must fail.
  if (rule.family == "CONF") return true;
  int on = best_match(on_, rule.id);
  if (default_set_ && rule.default_enabled) on = std::max(on, 0);
  // Rules off by default need an explicit, non-ALL selector.
  if (!rule.default_enabled && on == 0) on = -1;
  int off = best_match(off_, rule.id);
  for (const auto& pf : per_file_)
    if (glob_matches(pf.glob, rel, false)) off = std::max(off, best_match(pf.selectors, rule.id));
  return on >= 0 && on > off;
}

Severity RuleSelection::severity(const RuleInfo& rule, std::optional<Severity> reported) const {
  int best = -1;
  Severity sev = reported.value_or(rule.default_severity);
  for (const auto& [sel, s] : severity_) {
    if (!selector_matches(sel, rule.id)) continue;
    if (specificity(sel) > best) {
      best = specificity(sel);
      sev = s;
    }
  }
  return sev;
}

}  // namespace cudalint
