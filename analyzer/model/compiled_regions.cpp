// Cross-file resolution of compiled regions (see compiled_regions.h): the analysis's set-up, its
// entry points, and the rounds that summarise modules as it finds it needs them. Name resolution,
// the Dynamo config and the walk of the calls from each entry are in compiled_regions_*.cpp.
#include "analyzer/model/compiled_regions.h"

#include <algorithm>
#include <set>

#include <fmt/format.h>

#include "analyzer/frontends/python/gb_call_patterns.h"

#include "analyzer/model/compiled_regions_analysis.h"

namespace cudalint::model {

std::string module_name_of(std::string_view path) {
  std::string p(path);
  if (p.ends_with(".py")) p.resize(p.size() - 3);
  while (!p.empty() && p.front() == '/') p.erase(0, 1);
  if (p.starts_with("./")) p.erase(0, 2);
  std::replace(p.begin(), p.end(), '/', '.');
  if (p == "__init__") return "";
  if (p.ends_with(".__init__")) p.resize(p.size() - 9);
  return p;
}

bool entry_glob_matches(std::string_view pat, std::string_view s) {
  // Iterative matcher with one backtrack point for `*` (linear in practice).
  size_t p = 0, i = 0, star = std::string_view::npos, mark = 0;
  auto class_match = [&](size_t& pp, char c) {
    size_t q = pp + 1;
    bool neg = q < pat.size() && (pat[q] == '!' || pat[q] == '^');
    if (neg) ++q;
    bool ok = false;
    size_t first = q;
    while (q < pat.size() && (pat[q] != ']' || q == first)) {
      if (q + 2 < pat.size() && pat[q + 1] == '-' && pat[q + 2] != ']') {
        ok |= c >= pat[q] && c <= pat[q + 2];
        q += 3;
      } else {
        ok |= c == pat[q];
        ++q;
      }
    }
    if (q >= pat.size()) return false;  // no closing bracket: no match
    pp = q + 1;
    return ok != neg;
  };
  while (i < s.size()) {
    if (p < pat.size() && pat[p] == '*') {
      star = p++;
      mark = i;
      continue;
    }
    if (p < pat.size() && pat[p] == '[') {
      size_t pp = p;
      if (class_match(pp, s[i])) {
        p = pp;
        ++i;
        continue;
      }
    } else if (p < pat.size() && (pat[p] == '?' || pat[p] == s[i])) {
      ++p;
      ++i;
      continue;
    }
    if (star == std::string_view::npos) return false;
    p = star + 1;
    i = ++mark;
  }
  while (p < pat.size() && pat[p] == '*') ++p;
  return p == pat.size();
}

namespace regions {

namespace {

// Bounds the names compared with an unmatched entry-point glob.
constexpr size_t kMaxNearestCandidates = 50000;

size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diag = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diag + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diag = up;
    }
  }
  return row[b.size()];
}

// The three names closest to a glob: those ending in its last component first (`name` for
// `pkg.mod.name`), then by edit distance of the glob's literal text.
std::vector<std::string> nearest_names(const std::string& glob, std::vector<std::string> names) {
  std::string literal;
  for (char c : glob)
    if (c != '*' && c != '?' && c != '[' && c != ']') literal.push_back(c);
  std::string_view last = std::string_view(literal).substr(literal.find_last_of(".:") == std::string::npos
                                                               ? 0 : literal.find_last_of(".:") + 1);
  auto score = [&](const std::string& n) {
    bool same_last = !last.empty() && (n == last || n.ends_with("." + std::string(last)));
    return std::make_pair(same_last ? 0 : 1, edit_distance(literal.substr(0, 200), std::string_view(n).substr(0, 200)));
  };
  std::vector<std::pair<std::pair<int, size_t>, std::string>> scored;
  for (auto& n : names) scored.push_back({score(n), std::move(n)});
  std::sort(scored.begin(), scored.end());
  std::vector<std::string> out;
  for (size_t i = 0; i < scored.size() && out.size() < 3; ++i) out.push_back(std::move(scored[i].second));
  return out;
}

}  // namespace

Analysis::Analysis(const std::vector<PythonUnit>& units, const GraphBreakInputs& in) : units_(units), in_(in) {
  for (size_t u = 0; u < units_.size(); ++u) {
    std::string key = module_name_of(units_[u].file->path);
    keys_.push_back(key);
    by_key_.emplace(key, static_cast<int>(u));
    auto& fq = fn_by_qual_.emplace_back();
    auto& cq = cls_by_qual_.emplace_back();
    if (!units_[u].summary) continue;  // nothing of it is known yet (see sum())
    const auto& s = *units_[u].summary;
    fq = by_qualname(s.functions);
    cq = by_qualname(s.classes);
    // Few modules set Dynamo config: each entry looks at those only, not at every module.
    if (!s.config.empty()) config_units_.push_back(static_cast<int>(u));
  }
}

std::vector<GraphBreak> Analysis::run() {
  // Entry-point globs match functions of any module: every module is needed.
  if (!in_.entry_points.empty())
    for (size_t u = 0; u < units_.size(); ++u) {
      (void)sum(static_cast<int>(u));
      const auto& s = units_[u].summary;
      if (!s || !s->elided.empty()) wanted_whole_.insert(u);
    }
  collect_entries();
  for (size_t e = 0; e < entries_.size(); ++e) walk(e);
  return results();
}

void Analysis::add_entry(int unit, int fn, bool fullgraph, std::map<std::string, bool> patch, std::string how) {
  // A set, not a scan of entries_: a tree with thousands of compiled functions stays linear.
  if (!entry_keys_.emplace(unit, fn, fullgraph).second) return;
  entries_.push_back({unit, fn, fullgraph, std::move(patch), std::move(how)});
}

std::string Analysis::where_text(int unit, Span span) const {
  const SourceFile& f = *units_[static_cast<size_t>(unit)].file;
  return fmt::format("{}:{}", f.path, f.lines.line_of(span.begin));
}

// Units without a summary hold no compiled function, compile site or config
// (python::gb::may_start_regions), so only summarised ones are looked at.
void Analysis::collect_entries() {
  for (size_t u = 0; u < units_.size(); ++u) {
    if (!units_[u].summary) continue;
    const auto& s = sum(static_cast<int>(u));
    for (size_t i = 0; i < s.functions.size(); ++i)
      if (s.functions[i].compiled)
        add_entry(static_cast<int>(u), static_cast<int>(i), s.functions[i].compiled->fullgraph,
                  s.functions[i].compiled->config,
                  s.functions[i].compiled->fullgraph ? "@torch.compile(fullgraph=True)" : "@torch.compile");
  }
  for (size_t u = 0; u < units_.size(); ++u) {
    if (!units_[u].summary) continue;
    for (const auto& cs : sum(static_cast<int>(u)).compile_sites) {
      Target t = resolve(cs.target, static_cast<int>(u), -1);
      // A loop variable over a container (`for block in model.layers: block.compile()`)
      // stands for each element.
      std::vector<Target> targets;
      if (t.kind == TK::List || t.kind == TK::Dict) targets = t.items;
      else targets.push_back(t);
      for (const Target& one : targets) {
        if (cs.method_form && one.kind != TK::Instance) continue;
        Target fn;
        if (one.kind == TK::Function) fn = one;
        else if (one.kind == TK::Instance) fn = method(one.unit, one.index, "forward");
        if (fn.kind != TK::Function) continue;
        std::string how = fmt::format("{}{} at {}", cs.method_form ? ".compile(" : "torch.compile(",
                                      cs.fullgraph ? "fullgraph=True)" : ")", where_text(static_cast<int>(u), cs.span));
        const auto& f = sum(fn.unit).functions[static_cast<size_t>(fn.index)];
        add_entry(fn.unit, fn.index, cs.fullgraph, f.compiled ? f.compiled->config : std::map<std::string, bool>{},
                  how);
      }
    }
  }
  for (const auto& [glob, origin] : in_.entry_points) {
    bool any = false;
    std::vector<std::string> names;  // every function's dotted name, for the nearest matches
    for (size_t u = 0; u < units_.size(); ++u) {
      const auto& s = sum(static_cast<int>(u));
      std::vector<std::string> mods;
      for (std::string k = keys_[u];;) {
        mods.push_back(k);
        auto d = k.find('.');
        if (d == std::string::npos) break;
        k = k.substr(d + 1);
      }
      for (size_t i = 0; i < s.functions.size(); ++i) {
        bool hit = false;
        for (const auto& m : mods) {
          std::string full = m.empty() ? s.functions[i].qualname : m + "." + s.functions[i].qualname;
          std::string colon = m + ":" + s.functions[i].qualname;
          if (entry_glob_matches(glob, glob.find(':') != std::string::npos ? colon : full)) hit = true;
        }
        if (hit)
          add_entry(static_cast<int>(u), static_cast<int>(i), false, {},
                    fmt::format("entry-points \"{}\" in {}", glob, origin.path));
        any = any || hit;
        if (!any && names.size() < kMaxNearestCandidates)
          names.push_back(keys_[u].empty() ? s.functions[i].qualname : keys_[u] + "." + s.functions[i].qualname);
      }
    }
    if (!any) unmatched_.push_back({glob, origin, nearest_names(glob, std::move(names))});
  }
}

}  // namespace regions

using regions::Analysis;

python::gb::Summary summarize_unit(const PythonUnit& u, const python::gb::CallPatterns& calls) {
  return u.full ? python::gb::summarize(u.file->text, calls) : python::gb::summarize_lazy(u.file->text, calls, u.want);
}

std::vector<GraphBreak> find_graph_breaks(std::vector<PythonUnit>& units, const GraphBreakInputs& in,
                                          const SummarizeUnits& summarize, std::vector<UnmatchedEntryPoint>* unmatched) {
  const python::gb::CallPatterns none;
  auto fill = [&](const std::vector<size_t>& which) {
    if (summarize) summarize(units, which);
    for (size_t u : which)  // without a summarizer, or whatever it left out
      if (!units[u].summary) units[u].summary = summarize_unit(units[u], in.calls ? *in.calls : none);
  };
  // Each run that needs more summaries (or names a summary left out) is repeated with them; it
  // only reads summaries, so the last run (which needed none it lacked) computes what a run over
  // every module's whole summary would. A run costs little next to parsing (docs/performance.md),
  // but a long chain of modules must not cost a run
  // per module: after kLazyRounds every module without a summary is summarised (lazily), and
  // after kMaxRounds every module whole, so no run can ask for more. A module asked for names
  // a third time is summarised whole at once.
  constexpr int kLazyRounds = 12, kMaxRounds = 16;
  std::vector<uint8_t> asked(units.size(), 0);
  for (int round = 0;; ++round) {
    Analysis a(units, in);
    std::vector<GraphBreak> out = a.run();
    if (a.missing().empty() && a.wanted().empty() && a.wanted_whole().empty()) {
      if (unmatched) *unmatched = std::move(a.unmatched());
      return out;
    }
    std::set<size_t> which(a.missing().begin(), a.missing().end());
    for (const auto& [u, names] : a.wanted()) {
      std::vector<std::string>& w = units[u].want;
      w.insert(w.end(), names.begin(), names.end());
      std::sort(w.begin(), w.end());
      w.erase(std::unique(w.begin(), w.end()), w.end());
      if (units[u].summary && ++asked[u] >= 3) units[u].full = true;
      which.insert(u);
    }
    for (size_t u : a.wanted_whole()) {
      units[u].full = true;
      which.insert(u);
    }
    if (round + 1 >= kMaxRounds) {
      for (size_t u = 0; u < units.size(); ++u)
        if (!units[u].summary || !units[u].summary->elided.empty()) {
          units[u].full = true;
          which.insert(u);
        }
    } else if (round + 1 >= kLazyRounds) {
      for (size_t u = 0; u < units.size(); ++u)
        if (!units[u].summary) which.insert(u);
    }
    for (size_t u : which) units[u].summary.reset();
    fill(std::vector<size_t>(which.begin(), which.end()));
  }
}

}  // namespace cudalint::model
