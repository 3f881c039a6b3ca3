// Compiled regions: the Dynamo config a region runs with (torch defaults, Dockerfile ENV, config
// set by modules imported together with the entry's, @config.patch, fullgraph) and the import
// graph that decides which modules count.
#include <deque>

#include "analyzer/model/compiled_regions_analysis.h"

namespace cudalint::model::regions {

Config Analysis::config_for(const Entry& e) {
  Config c;
  auto env_on = [&](std::string_view var) {
    for (const auto& [k, v] : in_.env)
      if (k == var && v == "1") return true;
    return false;
  };
  c.capture_scalars = env_on("TORCHDYNAMO_CAPTURE_SCALAR_OUTPUTS");
  c.capture_dynamic = env_on("TORCHDYNAMO_CAPTURE_DYNAMIC_OUTPUT_SHAPE_OPS");
  for (int u : config_units_) {
    if (!scope_of(u).count(e.unit)) continue;
    for (const auto& set : sum(u).config) apply(c, set.key, set.value);
  }
  for (const auto& [k, v] : e.patch) apply(c, k, v);
  if (e.fullgraph) {  // torch 2.11: fullgraph=True captures instead of breaking
    c.capture_scalars = true;
    c.capture_dynamic = true;
  }
  return c;
}

void Analysis::apply(Config& c, const std::string& key, bool v) {
  if (key == "capture_scalar_outputs") c.capture_scalars = v;
  else if (key == "capture_dynamic_output_shape_ops") c.capture_dynamic = v;
  else if (key == "allow_rnn") c.allow_rnn = v;
  else if (key == "trace_numpy") c.trace_numpy = v;
  else if (key == "trace_autograd_ops") c.trace_autograd = v;
}

// Modules whose code runs in a process that imports `unit`: every module that imports it
// (directly or not), and everything those import.
const std::set<int>& Analysis::scope_of(int unit) {
  if (auto it = scopes_.find(unit); it != scopes_.end()) return it->second;
  build_import_graph();
  std::set<int> roots{unit};
  std::deque<int> q{unit};
  while (!q.empty()) {
    int x = q.front();
    q.pop_front();
    for (int p : importers_[static_cast<size_t>(x)])
      if (roots.insert(p).second) q.push_back(p);
    // Units without a summary whose imports are unknown: the ones that may import x are needed.
    for (int p : unsummarised_)
      if (p != x && may_import(p, x)) (void)sum(p);
  }
  std::set<int> out = roots;
  q.assign(roots.begin(), roots.end());
  while (!q.empty()) {
    int x = q.front();
    q.pop_front();
    if (!units_[static_cast<size_t>(x)].summary) (void)sum(x);  // its imports are needed
    for (int d : imports_[static_cast<size_t>(x)])
      if (out.insert(d).second) q.push_back(d);
  }
  return scopes_.emplace(unit, std::move(out)).first->second;
}

void Analysis::build_import_graph() {
  if (!imports_.empty() || units_.empty()) return;
  imports_.resize(units_.size());
  importers_.resize(units_.size());
  for (size_t u = 0; u < units_.size(); ++u) {
    if (!units_[u].summary) {
      unsummarised_.push_back(static_cast<int>(u));
      continue;
    }
    std::set<int> seen;
    for (const auto& imp : sum(static_cast<int>(u)).imports) {
      std::string name = imp.starts_with(".") ? absolute(static_cast<int>(u), imp) : script_relative(static_cast<int>(u), imp);
      int m = find_module(name);
      if (m < 0 && name.find('.') != std::string::npos) m = find_module(name.substr(0, name.rfind('.')));
      if (m >= 0 && m != static_cast<int>(u) && seen.insert(m).second) {
        imports_[u].push_back(m);
        importers_[static_cast<size_t>(m)].push_back(static_cast<int>(u));
      }
    }
  }
}

}  // namespace cudalint::model::regions
