// CMake front-end, evaluator: control flow (blocks, loops, function and macro calls) and the
// files it runs (include, add_subdirectory), each bounded in depth and work.
#include <algorithm>

#include <fmt/format.h>

#include "analyzer/frontends/cmake/cmake_evaluator.h"

namespace cudalint::cmake::detail {

void Evaluator::limit_error(const Unit& u, Span s, std::string msg) {
  if (limit_sites_.insert(fmt::format("{}\x1f{}", u.abs, s.begin)).second) res_.errors.push_back({{u.display, s}, std::move(msg)});
}

Flow Evaluator::exec_range(const Unit& u, size_t b, size_t e, Ctx& ctx) {
  if (nesting_ >= kMaxNesting) {
    if (b < u.cmds.size())
      limit_error(u, u.cmds[b].name_span, fmt::format("nesting limit reached: blocks and calls deeper than {} are not evaluated", kMaxNesting));
    return Flow::Normal;
  }
  ++nesting_;
  Flow f = Flow::Normal;
  for (size_t i = b; i < e && i < u.cmds.size();) {
    const Command& c = u.cmds[i];
    where_ = {u.display, c.name_span};
    if (!stopped_ && over_budget()) {
      stopped_ = true;
      res_.errors.push_back({where_, "evaluation stopped: the values it built and read grew past 64 MiB"});
    }
    if (stopped_) {
      f = Flow::Stop;
      break;
    }
    if (++commands_ > kMaxCommands) {
      stopped_ = true;
      res_.errors.push_back({where_, fmt::format("evaluation stopped after {} commands: the project is too large "
                                                 "or loops without end", kMaxCommands)});
      f = Flow::Stop;
      break;
    }
    const std::string& n = c.name;
    size_t after = i + 1;
    if (opener_kind(n) >= 0) after = static_cast<size_t>(u.end[i]) + 1;
    if (n == "if") f = exec_if(u, i, ctx);
    else if (n == "foreach") f = exec_foreach(u, i, ctx);
    else if (n == "while") f = exec_while(u, i, ctx);
    else if (n == "function" || n == "macro") define(u, i, ctx);
    else if (n == "block") f = exec_block(u, i, ctx);
    else f = exec_command(u, c, ctx);
    if (f != Flow::Normal) break;
    i = after;
  }
  --nesting_;
  return f;
}

Flow Evaluator::exec_if(const Unit& u, size_t i, Ctx& ctx) {
  bool prior_unknown = false;
  size_t end = u.end[i];
  for (size_t k = i; k < end && k < u.cmds.size(); k = u.next[k]) {
    const Command& c = u.cmds[k];
    Tri t = c.name == "else" ? Tri::True : condition(c, ctx);
    if (t == Tri::False) {
      note_cuda_default_decided(u, c);
      continue;
    }
    bool cond = prior_unknown || t == Tri::Unknown;
    cond_depth_ += cond;
    if (cond) if_regions_.push_back(++next_region_);
    Flow f = exec_range(u, k + 1, u.next[k], ctx);
    if (cond) if_regions_.pop_back();
    cond_depth_ -= cond;
    if (f != Flow::Normal) return f;
    if (t == Tri::True) break;
    prior_unknown = true;
  }
  return Flow::Normal;
}

Flow Evaluator::exec_loop_body(const Unit& u, size_t b, size_t e, Ctx& ctx, bool& broke) {
  Flow f = exec_range(u, b, e, ctx);
  if (f == Flow::Break) broke = true;
  return f == Flow::Break ? Flow::Normal : f;
}

Flow Evaluator::exec_foreach(const Unit& u, size_t i, Ctx& ctx) {
  const Command& c = u.cmds[i];
  auto args = expand_args(c, ctx, 0, true);
  if (args.empty()) return Flow::Normal;
  std::string var = args[0].text;
  std::vector<Arg> items;
  bool unsure = false;
  auto kw = [&](size_t k, std::string_view w) { return k < args.size() && !args[k].quoted && args[k].text == w; };
  if (kw(1, "RANGE")) {
    std::vector<long long> nums;
    for (size_t k = 2; k < args.size() && k < 5; ++k) {
      auto d = as_number(args[k].text);
      if (!d || args[k].uncertain || args[k].text.find('.') != std::string::npos) unsure = true;
      else nums.push_back(static_cast<long long>(*d));
    }
    if (!unsure && !nums.empty()) {
      long long lo = nums.size() == 1 ? 0 : nums[0], hi = nums.size() == 1 ? nums[0] : nums[1];
      long long step = nums.size() == 3 ? nums[2] : 1;
      if (step <= 0 || hi - lo > static_cast<long long>(kMaxCommands)) unsure = true;
      else
        for (long long v = lo; v <= hi; v += step) items.push_back({std::to_string(v)});
    }
  } else if (kw(1, "IN")) {
    int mode = 0;  // 1 LISTS, 2 ITEMS, 3 ZIP_LISTS
    for (size_t k = 2; k < args.size(); ++k) {
      if (kw(k, "LISTS")) mode = 1;
      else if (kw(k, "ITEMS")) mode = 2;
      else if (kw(k, "ZIP_LISTS")) mode = 3;
      else if (mode == 2) items.push_back(args[k]);
      else if (mode == 3) unsure = true;
      else if (mode == 1) {
        const Var* l = args[k].uncertain ? nullptr : resolve(args[k].text);
        if (!l) {
          unsure = true;
          continue;
        }
        for (auto& el : split_charged(l->value, false)) items.push_back({std::move(el), false, l->uncertain});
      }
    }
  } else {
    items.assign(args.begin() + 1, args.end());
  }
  for (const Arg& a : items) unsure = unsure || a.uncertain;
  items.erase(std::remove_if(items.begin(), items.end(), is_placeholder), items.end());
  // Loop variables are restored afterwards.
  std::optional<Entry> saved;
  if (auto it = scopes_.back().find(var); it != scopes_.back().end()) saved = it->second;
  int extra = 0;
  cond_depth_ += unsure;
  Ctx lc = ctx;
  lc.loop_base = cond_depth_;
  lc.loop_extra = &extra;
  Flow f = Flow::Normal;
  bool broke = false;
  size_t b = i + 1, e = u.end[i];
  if (items.empty() && unsure) {
    set_unknown(var);
    f = exec_loop_body(u, b, e, lc, broke);
  }
  for (const Arg& a : items) {
    if (f != Flow::Normal || broke) break;
    if (++commands_ > kMaxCommands) {  // iterations count too: an empty body must not spin
      stopped_ = true;
      res_.errors.push_back({{u.display, c.name_span}, fmt::format("evaluation stopped after {} commands: the "
                                                                   "project is too large or loops without end", kMaxCommands)});
      f = Flow::Stop;
      break;
    }
    put(var, {a.text, a.uncertain || cond_depth_ > 0, a.taint});
    f = exec_loop_body(u, b, e, lc, broke);
  }
  cond_depth_ -= extra + unsure;
  if (saved) scopes_.back()[var] = *saved;
  else scopes_.back().erase(var);
  return f;
}

Flow Evaluator::exec_while(const Unit& u, size_t i, Ctx& ctx) {
  if (condition(u.cmds[i], ctx) == Tri::False) return Flow::Normal;
  // Bounded: the body runs once, and what it does is conditional.
  int extra = 0;
  ++cond_depth_;
  Ctx lc = ctx;
  lc.loop_base = cond_depth_;
  lc.loop_extra = &extra;
  bool broke = false;
  Flow f = exec_loop_body(u, i + 1, u.end[i], lc, broke);
  cond_depth_ -= extra + 1;
  return f;
}

Flow Evaluator::exec_block(const Unit& u, size_t i, Ctx& ctx) {
  auto args = expand_args(u.cmds[i], ctx);
  bool scope = true;
  std::vector<std::string> propagate;
  for (size_t k = 0; k < args.size(); ++k) {
    if (args[k].text == "SCOPE_FOR") {
      scope = false;
      for (size_t j = k + 1; j < args.size() && (args[j].text == "POLICIES" || args[j].text == "VARIABLES"); ++j)
        scope = scope || args[j].text == "VARIABLES";
    } else if (args[k].text == "PROPAGATE") {
      for (size_t j = k + 1; j < args.size(); ++j) propagate.push_back(args[j].text);
      break;
    }
  }
  if (!scope) return exec_range(u, i + 1, u.end[i], ctx);
  scopes_.emplace_back();
  Flow f = exec_range(u, i + 1, u.end[i], ctx);
  std::vector<std::pair<std::string, std::optional<Var>>> out;
  for (const auto& n : propagate) {
    const Var* v = resolve(n);
    out.emplace_back(n, v ? std::optional<Var>(*v) : std::nullopt);
  }
  scopes_.pop_back();
  for (auto& [n, v] : out) {
    if (v) put(n, std::move(*v));
    else unset_var(n, false);
  }
  return f;
}

void Evaluator::define(const Unit& u, size_t i, const Ctx& ctx) {
  auto args = expand_args(u.cmds[i], ctx);
  if (args.empty() || args[0].text.empty()) return;
  Callable def;
  def.macro = u.cmds[i].name == "macro";
  for (size_t k = 1; k < args.size(); ++k) def.params.push_back(args[k].text);
  def.unit = &u;
  def.body_b = i + 1;
  def.body_e = u.end[i];
  callables_[lower(args[0].text)] = std::move(def);
}

Flow Evaluator::call(const Unit& u, const Command& c, const Callable& def, Ctx& ctx) {
  if (depth_ >= kMaxDepth) {
    limit_error(u, c.name_span, fmt::format("call depth limit reached: `{}` is called {} levels deep (recursion?), "
                                            "the call is not evaluated", shown(c.name), kMaxDepth));
    return Flow::Normal;
  }
  auto args = expand_args(c, ctx);
  bool unsure = cond_depth_ > 0;
  std::vector<std::string> texts;
  uint8_t taint = 0;
  for (const auto& a : args) {
    texts.push_back(a.text);
    unsure = unsure || a.uncertain;
    taint |= a.taint;
  }
  std::vector<std::string> rest(texts.begin() + static_cast<long>(std::min(texts.size(), def.params.size())), texts.end());
  std::vector<std::pair<std::string, Var>> bind;
  bind.emplace_back("ARGC", Var{std::to_string(texts.size()), unsure});
  bind.emplace_back("ARGV", Var{join(texts, ";"), unsure, taint});
  bind.emplace_back("ARGN", Var{join(rest, ";"), unsure, taint});
  for (size_t k = 0; k < args.size(); ++k) bind.emplace_back(fmt::format("ARGV{}", k), Var{args[k].text, unsure || args[k].uncertain, args[k].taint});
  for (size_t k = 0; k < def.params.size() && k < args.size(); ++k)
    bind.emplace_back(def.params[k], Var{args[k].text, unsure || args[k].uncertain, args[k].taint});
  ++depth_;
  calls_.push_back({&u, &c, &args});  // where names passed down are written (targets' origins)
  Flow f;
  if (def.macro) {
    MacroArgs ma;
    for (auto& [n, v] : bind) ma.map[n] = std::move(v);
    Ctx mc = ctx;  // return() and break() act on the caller, as the body is pasted there
    mc.macro = &ma;
    f = exec_range(*def.unit, def.body_b, def.body_e, mc);
  } else {
    scopes_.emplace_back();
    for (auto& [n, v] : bind) put(n, std::move(v));
    for (size_t k = args.size(); k < def.params.size(); ++k) scopes_.back()[def.params[k]] = Entry{Entry::State::Unset, {}};
    int extra = 0;
    Ctx fc;
    fc.return_base = cond_depth_;
    fc.return_extra = &extra;
    f = exec_range(*def.unit, def.body_b, def.body_e, fc);
    cond_depth_ -= extra;
    scopes_.pop_back();
    if (f != Flow::Stop) f = Flow::Normal;
  }
  calls_.pop_back();
  --depth_;
  return f;
}

// Runs another file in the current scope (include) or a new one (add_subdirectory).
Flow Evaluator::run_file(const Unit& u, const Command& c, Span at, const Unit& file, bool subdir) {
  if (depth_ >= kMaxDepth) {
    limit_error(u, at, fmt::format("include depth limit reached: `{}` is nested {} levels deep (an include loop?), "
                                   "it is not evaluated", shown(file.display), kMaxDepth));
    return Flow::Normal;
  }
  (void)c;
  enter(file);
  ++depth_;
  std::string saved_src = src_dir_, saved_list = list_dir_;
  std::optional<Entry> saved_dir, saved_file;
  if (subdir) {
    scopes_.emplace_back();
    src_dir_ = file.dir;
    put("CMAKE_CURRENT_SOURCE_DIR", {file.dir});
    set_unknown("CMAKE_CURRENT_BINARY_DIR");
    push_dir();
  } else {
    if (auto it = scopes_.back().find("CMAKE_CURRENT_LIST_DIR"); it != scopes_.back().end()) saved_dir = it->second;
    if (auto it = scopes_.back().find("CMAKE_CURRENT_LIST_FILE"); it != scopes_.back().end()) saved_file = it->second;
  }
  list_dir_ = file.dir;
  put("CMAKE_CURRENT_LIST_DIR", {file.dir});
  put("CMAKE_CURRENT_LIST_FILE", {file.abs});
  int extra = 0;
  Ctx fc;
  fc.return_base = cond_depth_;
  fc.return_extra = &extra;
  Flow f = exec_range(file, 0, file.cmds.size(), fc);
  cond_depth_ -= extra;
  if (subdir) {
    finish_dir();  // reads the directory's own scope, so before it is left
    scopes_.pop_back();
  } else {
    if (saved_dir) scopes_.back()["CMAKE_CURRENT_LIST_DIR"] = *saved_dir;
    if (saved_file) scopes_.back()["CMAKE_CURRENT_LIST_FILE"] = *saved_file;
  }
  src_dir_ = saved_src;
  list_dir_ = saved_list;
  --depth_;
  return f == Flow::Stop ? f : Flow::Normal;
}

Flow Evaluator::do_include(const Unit& u, const Command& c, const Ctx& ctx) {
  auto args = expand_args(c, ctx);
  if (args.empty()) return Flow::Normal;
  const Arg& a = args[0];
  bool optional = false;
  for (size_t k = 1; k < args.size(); ++k) {
    if (args[k].text == "OPTIONAL") optional = true;
    if (args[k].text == "RESULT_VARIABLE" && k + 1 < args.size()) set_unknown(args[k + 1].text);
  }
  Span at = c.args[a.src].span;
  std::string name = a.text;
  if (name.empty()) return Flow::Normal;
  bool module = name.find('/') == std::string::npos && !name.ends_with(".cmake");
  std::vector<std::string> tries;
  if (!name.starts_with('/'))
    if (const Var* mp = resolve("CMAKE_MODULE_PATH"))
      for (const auto& d : split_charged(mp->value, false))
        if (d.starts_with('/')) tries.push_back(join_path(d, name + ".cmake"));
  if (!module) {
    tries.push_back(join_path(src_dir_, name));
    tries.push_back(join_path(list_dir_, name));
  }
  for (const auto& p : tries)
    if (const Unit* f = unit_for(p)) return run_file(u, c, at, *f, false);
  // Modules that ship with CMake (CheckLanguage, FetchContent, ...) are not modelled.
  if (!module && !optional && !a.uncertain)
    res_.errors.push_back({{u.display, at}, fmt::format("cannot read the included file `{}`", shown(tries.empty() ? name : tries.front()))});
  return Flow::Normal;
}

Flow Evaluator::do_add_subdirectory(const Unit& u, const Command& c, const Ctx& ctx) {
  auto args = expand_args(c, ctx);
  if (args.empty() || args[0].text.empty()) return Flow::Normal;
  std::string dir = join_path(src_dir_, args[0].text);
  std::string file = dir + "/CMakeLists.txt";
  Span at = c.args[args[0].src].span;
  if (const Unit* f = unit_for(file)) return run_file(u, c, at, *f, true);
  if (!args[0].uncertain)
    res_.errors.push_back({{u.display, at}, fmt::format("cannot read `{}` for add_subdirectory", shown(file))});
  return Flow::Normal;
}

}  // namespace cudalint::cmake::detail
