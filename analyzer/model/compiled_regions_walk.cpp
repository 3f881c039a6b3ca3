// Compiled regions: the breadth-first walk of the calls from each entry, the graph breaks it
// reaches under the region's config, and the sorted results.
#include <algorithm>
#include <deque>

#include "analyzer/frontends/python/gb_rule_ids.h"
#include "analyzer/model/compiled_regions_analysis.h"

namespace cudalint::model::regions {

bool Analysis::breaks(gb::Gate g, const Config& c) {
  switch (g) {
    case gb::Gate::Always: return true;
    case gb::Gate::UnlessScalarsCaptured: return !c.capture_scalars;
    case gb::Gate::OnlyScalarsCaptured: return c.capture_scalars;
    case gb::Gate::UnlessDynamicCaptured: return !c.capture_dynamic;
    case gb::Gate::OnlyNumpyUntraced: return !c.trace_numpy;
    case gb::Gate::UnlessAutogradTraced: return !c.trace_autograd;
    case gb::Gate::OnlyAtEntry: return true;  // the walk checks that the function is the entry
  }
  return false;
}

void Analysis::record(size_t entry, int unit, Span span, std::string_view rule, const std::string& what,
                      const std::string& registry, const std::string& detail,
                      const std::optional<std::pair<int, const gb::CallSite*>>& via, const std::string& via_callee,
                      const std::string& when) {
  Site key{unit, span.begin, span.end, std::string(rule)};
  auto [it, fresh] = found_.try_emplace(key);
  Found& f = it->second;
  if (fresh) {
    f.what = what;
    f.registry = registry;
    f.detail = detail;
    f.via = via;
    f.via_callee = via_callee;
    f.when = when;
  } else if (when.empty()) {
    f.when.clear();
  }
  if (std::find(f.entries.begin(), f.entries.end(), entry) == f.entries.end()) f.entries.push_back(entry);
}

std::string Analysis::function_name(int unit, int fn) {
  return sum(unit).functions[static_cast<size_t>(fn)].qualname;
}

void Analysis::note_passed(Passed& p, const gb::CallSite& c, const gb::Function& callee) {
  if (p.all) return;
  if (c.splat) {
    p.all = true;
    return;
  }
  // A method's `self` is params[0]; a call may or may not bind it: cover one more.
  size_t n = static_cast<size_t>(c.positional) + (callee.cls >= 0 ? 1 : 0);
  size_t i = 0;
  for (std::string_view name : callee.params) {
    if (i++ >= n) break;
    p.names.emplace(name);
  }
  for (const auto& k : c.keywords) p.names.insert(k);
}

void Analysis::walk(size_t e) {
  const Entry& entry = entries_[e];
  Config cfg = config_for(entry);
  struct Node {
    int unit, fn;
    std::optional<std::pair<int, const gb::CallSite*>> via;  // the call that reached it
    std::string via_callee;
    std::string when;  // the condition the path to it passed (BreakSite::when), if any
  };
  std::map<std::pair<int, int>, Passed> passed;
  passed[{entry.unit, entry.fn}].all = true;  // the caller of the entry may pass anything
  auto live = [&](const Node& n, const std::string& needs) {
    if (needs.empty()) return true;
    const Passed& p = passed[{n.unit, n.fn}];
    return p.all || p.names.count(needs) > 0;
  };
  // Reached functions: true once reached unconditionally. A function first reached under a
  // condition is walked again when an unconditional path reaches it.
  std::map<std::pair<int, int>, bool> seen{{{entry.unit, entry.fn}, true}};
  std::deque<Node> q{{entry.unit, entry.fn, std::nullopt, {}, {}}};
  // Sites held back until a call passing their parameter shows up: (node, break or call).
  std::vector<std::pair<Node, const gb::BreakSite*>> held_breaks;
  std::vector<std::pair<Node, const gb::CallSite*>> held_calls;
  auto do_call = [&](const Node& n, const gb::Function& f, const gb::CallSite& c) {
    --budget_;
    // A call's callee resolves the same from every entry: once per call site.
    auto [slot, fresh] = call_targets_.try_emplace(&c);
    if (fresh) slot->second = resolve(c.callee, n.unit, f.self_cls);
    const Target& t = slot->second;
    std::optional<std::pair<int, const gb::CallSite*>> via{{n.unit, &c}};
    const std::string& when = c.when.empty() ? n.when : c.when;
    Reached here{n.via, n.via_callee, when};
    call(e, cfg, n.unit, c, t, here, [&](int u, int fn) {
      const auto& callee = sum(u).functions[static_cast<size_t>(fn)];
      note_passed(passed[{u, fn}], c, callee);
      auto [it, fresh] = seen.try_emplace({u, fn}, when.empty());
      if (fresh || (!it->second && when.empty())) {
        it->second = when.empty();
        q.push_back({u, fn, via, function_name(u, fn), when});
      }
    }, 0);
  };
  for (;;) {
    while (!q.empty() && budget_ > 0) {
      Node n = std::move(q.front());
      q.pop_front();
      const auto& f = sum(n.unit).functions[static_cast<size_t>(n.fn)];
      for (const auto& b : f.breaks) {
        if (!breaks(b.gate, cfg) || (b.gate == gb::Gate::OnlyAtEntry && n.via)) continue;
        if (!live(n, b.needs)) {
          held_breaks.emplace_back(n, &b);
          continue;
        }
        record(e, n.unit, b.span, b.rule, b.what, b.registry, b.detail, n.via, n.via_callee,
               b.when.empty() ? n.when : b.when);
      }
      for (const auto& c : f.calls) {
        if (!live(n, c.needs)) {
          held_calls.emplace_back(n, &c);
          continue;
        }
        do_call(n, f, c);
      }
    }
    if (budget_ <= 0) break;
    // Held sites that a later call made live.
    bool progress = false;
    for (auto it = held_breaks.begin(); it != held_breaks.end();) {
      if (live(it->first, it->second->needs)) {
        const Node& n = it->first;
        const gb::BreakSite& b = *it->second;
        record(e, n.unit, b.span, b.rule, b.what, b.registry, b.detail, n.via, n.via_callee,
               b.when.empty() ? n.when : b.when);
        it = held_breaks.erase(it);
      } else {
        ++it;
      }
    }
    for (size_t i = 0; i < held_calls.size();) {
      if (live(held_calls[i].first, held_calls[i].second->needs)) {
        auto [n, c] = held_calls[i];
        held_calls.erase(held_calls.begin() + static_cast<std::ptrdiff_t>(i));
        const auto& f = sum(n.unit).functions[static_cast<size_t>(n.fn)];
        do_call(n, f, *c);
        progress = true;
      } else {
        ++i;
      }
    }
    if (!progress || q.empty()) break;
  }
}

template <typename Enqueue>
void Analysis::call(size_t e, const Config& cfg, int unit, const gb::CallSite& c, const Target& t, const Reached& r,
                    Enqueue&& enqueue, int depth) {
  if (depth > 4) return;
  auto what = [&] { return call_text(unit, c.span); };  // only for a break found here
  switch (t.kind) {
    case TK::Function: {
      const auto& f = sum(t.unit).functions[static_cast<size_t>(t.index)];
      if (f.disabled) {
        record(e, unit, c.span, gb::rule_id::kDisabledFunctionCalled, what(), f.disabled_nonrecursive ? "GB0099" : "GB0098",
               f.qualname, r.via, r.callee, r.when);
        return;
      }
      if (f.opaque || f.scripted) return;
      enqueue(t.unit, t.index);
      return;
    }
    case TK::Class: {
      Target init = method(t.unit, t.index, "__init__");
      if (init.kind == TK::Function) call(e, cfg, unit, c, init, r, enqueue, depth + 1);
      return;
    }
    case TK::Instance: {
      Target m = method(t.unit, t.index, "__call__");
      if (m.kind != TK::Function) m = method(t.unit, t.index, "forward");
      if (m.kind == TK::Function) call(e, cfg, unit, c, m, r, enqueue, depth + 1);
      return;
    }
    case TK::ExternalInstance: {
      std::string_view last = std::string_view(t.path).substr(t.path.rfind('.') + 1);
      if (t.path.starts_with("torch.nn.") && (last == "LSTM" || last == "GRU" || last == "RNN") && !cfg.allow_rnn)
        record(e, unit, c.span, gb::rule_id::kRnnModuleInCompiledCode, what(), "GB0014", "torch.nn." + std::string(last),
               r.via, r.callee, r.when);
      return;
    }
    case TK::Scripted: {
      if (!t.items.empty() && (t.items[0].kind == TK::Instance || t.items[0].kind == TK::ExternalInstance))
        record(e, unit, c.span, gb::rule_id::kScriptedModuleInCompiledCode, what(), "GB0357", {}, r.via, r.callee, r.when);
      return;
    }
    case TK::Disabled:
      record(e, unit, c.span, gb::rule_id::kDisabledFunctionCalled, what(), "GB0098", {}, r.via, r.callee, r.when);
      return;
    case TK::Extension:
      record(e, unit, c.span, gb::rule_id::kExtensionCallNotCustomOp, what(), "GB0007", t.path, r.via, r.callee, r.when);
      return;
    case TK::List:
      for (const auto& i : t.items) call(e, cfg, unit, c, i, r, enqueue, depth + 1);
      return;
    default: return;
  }
}

std::string Analysis::call_text(int unit, Span span) const {
  std::string_view text = units_[static_cast<size_t>(unit)].file->text;
  if (span.end > text.size() || span.begin > span.end) return {};
  std::string out;
  for (char ch : text.substr(span.begin, span.end - span.begin)) {
    if (ch == '\n' || ch == '\r' || ch == '\t' || ch == '\\') {
      if (!out.empty() && out.back() != ' ') out += ' ';
      continue;
    }
    if (ch == ' ' && !out.empty() && out.back() == ' ') continue;
    out += ch;
    if (out.size() > 60) {
      out.resize(57);
      while (!out.empty() && (static_cast<unsigned char>(out.back()) & 0xC0) == 0x80) out.pop_back();
      if (!out.empty() && (static_cast<unsigned char>(out.back()) & 0x80)) out.pop_back();
      out += "...";
      break;
    }
  }
  return out;
}

std::vector<GraphBreak> Analysis::results() {
  std::vector<GraphBreak> out;
  for (auto& [site, f] : found_) {
    GraphBreak g;
    g.rule = site.rule;
    g.where = {units_[static_cast<size_t>(site.unit)].file->path, {site.begin, site.end}};
    g.what = f.what;
    g.registry = f.registry;
    g.detail = f.detail;
    g.only_when = f.when;
    std::vector<RegionEntry> es;
    for (size_t ei : f.entries) {
      const Entry& en = entries_[ei];
      const auto& fn = sum(en.unit).functions[static_cast<size_t>(en.fn)];
      g.fullgraph |= en.fullgraph;
      es.push_back({fn.qualname, {units_[static_cast<size_t>(en.unit)].file->path, fn.name_span}, en.fullgraph,
                    en.how});
    }
    std::sort(es.begin(), es.end(), [](const RegionEntry& a, const RegionEntry& b) {
      return std::tie(a.where.path, a.where.span.begin, b.fullgraph) <
             std::tie(b.where.path, b.where.span.begin, a.fullgraph);
    });
    // One line per entry function (the fullgraph one first when compiled both ways).
    es.erase(std::unique(es.begin(), es.end(),
                         [](const RegionEntry& a, const RegionEntry& b) { return a.where == b.where; }),
             es.end());
    if (es.size() > kMaxEntriesShown) {
      g.more_entries = es.size() - kMaxEntriesShown;
      es.resize(kMaxEntriesShown);
    }
    g.entries = std::move(es);
    if (f.via) {
      const auto& [vu, cs] = *f.via;
      g.via = Origin{units_[static_cast<size_t>(vu)].file->path, cs->span};
      g.via_callee = f.via_callee;
    }
    out.push_back(std::move(g));
  }
  std::sort(out.begin(), out.end(), [](const GraphBreak& a, const GraphBreak& b) {
    return std::tie(a.where.path, a.where.span.begin, a.rule) < std::tie(b.where.path, b.where.span.begin, b.rule);
  });
  return out;
}

}  // namespace cudalint::model::regions
