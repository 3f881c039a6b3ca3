// CMake front-end, evaluator: recording facts (cmake.h's Facts) from the commands that carry
// them and from writes to the variables they are read from.
#include <algorithm>

#include <fmt/format.h>

#include "analyzer/frontends/cmake/cmake_evaluator.h"

namespace cudalint::cmake::detail {

Span Evaluator::span_of(const Command& c, size_t b, size_t e, size_t fallback) const {
  if (b < e && e <= c.args.size()) return {c.args[b].span.begin, c.args[e - 1].span.end};
  if (fallback < c.args.size()) return c.args[fallback].span;
  return c.name_span;
}

bool Evaluator::fresh(std::string_view kind, const std::string& target, const Value& v) {
  return seen_
      .insert(fmt::format("{}\x1f{}\x1f{}\x1f{}\x1f{}\x1f{}\x1f{}", kind, target, v.value, v.origin.path,
                          v.origin.span.begin, v.origin.span.end, v.conditional))
      .second;
}
void Evaluator::add(std::vector<Value>& to, std::string_view kind, Value v) {
  if (fresh(kind, "", v)) to.push_back(std::move(v));
}
void Evaluator::add(std::vector<TargetFact>& to, std::string_view kind, std::string target, Value v) {
  if (fresh(kind, target, v)) to.push_back({std::move(target), std::move(v)});
}
// The first value wins, unless it was conditional and this one is not.
void Evaluator::first(std::optional<Value>& slot, Value v) {
  if (!slot || (slot->conditional && !v.conditional)) slot = std::move(v);
}

Value Evaluator::value_at(const Unit& u, Span s, std::string v, bool conditional) const {
  return Value{std::move(v), Origin{u.display, s}, conditional || cond_depth_ > 0};
}

// The argument in [vb, ve) that wrote `needle`, else all of them.
Span Evaluator::locate(const Command& c, size_t vb, size_t ve, size_t fallback, std::string_view needle) const {
  for (std::string_view n : {needle, needle.substr(needle.find(' ') == std::string_view::npos ? 0 : needle.find(' ') + 1)})
    for (size_t k = vb; k < ve && k < c.args.size(); ++k)
      if (!n.empty() && c.args[k].raw.find(n) != std::string::npos) return c.args[k].span;
  return span_of(c, vb, ve, fallback);
}

// Flags in command arguments [b, e) (target_compile_options & co).
void Evaluator::flags_from_args(const Unit& u, const Command& c, size_t b, size_t e, const Ctx& ctx,
                                const std::string& target, bool arch, bool abi, std::vector<Value>* reach) {
  static constexpr std::string_view kKeywords[] = {"PRIVATE", "PUBLIC", "INTERFACE", "BEFORE"};
  std::vector<std::pair<std::string, size_t>> pieces, certain;
  std::unordered_set<size_t> iface;  // arguments after INTERFACE: they reach only the target's users
  bool in_iface = false;
  for (size_t k = b; k < e && k < c.args.size(); ++k) {
    const Argument& a = c.args[k];
    if (a.kind == Argument::Kind::Unquoted &&
        std::find(std::begin(kKeywords), std::end(kKeywords), a.raw) != std::end(kKeywords)) {
      if (a.raw != "BEFORE") in_iface = a.raw == "INTERFACE";
      continue;
    }
    if (in_iface) iface.insert(k);
    Expanded x = expand_one(a, ctx);
    if (x.taint & kTorchCxxFlags)
      add(res_.facts.torch_cxx_flags_uses, "tcf", value_at(u, a.span, a.raw, false));
    pieces.emplace_back(std::move(x.text), k);
    certain.emplace_back(expand_one(a, ctx, true).text, k);
  }
  std::unordered_set<std::string> sure;
  for (Tok& t : flag_units(certain)) sure.insert(std::move(t.text));
  for (const Tok& t : flag_units(pieces)) {
    bool cond = !sure.count(t.text);
    Span sp = t.src < c.args.size() ? c.args[t.src].span : c.name_span;
    if (arch && is_arch_flag(t.text)) add(res_.facts.cuda_arch_flags, "arch", value_at(u, sp, t.text, cond));
    if (reach && is_arch_flag(t.text) && !iface.count(t.src)) {
      charge(t.text.size() + 64);  // copies of a long flag list into many targets are work too
      reach->push_back(value_at(u, sp, t.text, cond));
    }
    if (abi)
      if (auto v = abi_value(t.text, true)) add(res_.facts.abi_defines, "abi", target, value_at(u, sp, *v, cond));
  }
}

// Definitions (`NAME=VALUE`, `-D` optional) in command arguments [b, e).
void Evaluator::defines_from_args(const Unit& u, const Command& c, size_t b, size_t e, const Ctx& ctx, const std::string& target,
                                  bool need_dash) {
  for (size_t k = b; k < e && k < c.args.size(); ++k) {
    const Argument& a = c.args[k];
    Expanded x = expand_one(a, ctx);
    if (a.raw.find(kAbiMacro) == std::string::npos && x.text.find(kAbiMacro) == std::string::npos) continue;
    std::string certain = expand_one(a, ctx, true).text;
    for (const std::string& el : split_list(strip_genex(x.text), false)) {
      std::string_view d = el;
      while (!d.empty() && is_space(d.front())) d.remove_prefix(1);
      while (!d.empty() && is_space(d.back())) d.remove_suffix(1);
      if (auto v = abi_value(d, need_dash))
        add(res_.facts.abi_defines, "abi", target, value_at(u, a.span, *v, certain.find(d) == std::string::npos));
    }
  }
}

// Facts carried by writing `after` to variable `name` (`before` is what it replaced).
void Evaluator::note_write(const std::string& name, const Var* before, const Var& after, const Site& s) {
  const Unit& u = *s.u;
  const Command& c = *s.c;
  bool cond = after.uncertain;
  if (name == "CMAKE_CUDA_ARCHITECTURES")
    add(res_.facts.cmake_cuda_architectures, "cca", value_at(u, span_of(c, s.vb, s.ve, s.name_arg), after.value, cond));
  if (name == "TORCH_CUDA_ARCH_LIST")
    add(res_.facts.torch_cuda_arch_list, "tcal", value_at(u, span_of(c, s.vb, s.ve, s.name_arg), after.value, cond));
  if (name == "CUDA_NVCC_FLAGS" || name.starts_with("CUDA_NVCC_FLAGS_"))
    add(res_.facts.legacy_find_cuda, "legacy", value_at(u, span_of(c, s.name_arg, s.name_arg + 1, s.name_arg), name, false));
  bool cuda = is_cuda_flags_var(name), cxx = is_cxx_flags_var(name);
  if (!cuda && !cxx) return;
  if ((after.taint & kTorchCxxFlags) && !(before && (before->taint & kTorchCxxFlags))) {
    Span sp = locate(c, s.vb, s.ve, s.name_arg, "TORCH_CXX_FLAGS");
    std::string raw;
    for (size_t k = s.vb; k < s.ve && k < c.args.size(); ++k)
      if (c.args[k].span.begin >= sp.begin && c.args[k].span.end <= sp.end) raw += (raw.empty() ? "" : " ") + c.args[k].raw;
    add(res_.facts.torch_cxx_flags_uses, "tcf", value_at(u, sp, raw.empty() ? name : raw, false));
  }
  // Tokenising is work too: a value that doubles on every write must hit the budget.
  charge(after.value.size() + (before ? before->value.size() : 0));
  if (over_budget()) return;
  // Only the flags this write added: `set(F "${F} -x")` must not report F's old flags again.
  std::unordered_multiset<std::string> old;
  if (before)
    for (auto& t : flag_units({{before->value, npos}})) old.insert(std::move(t.text));
  std::vector<std::pair<std::string, size_t>> certain;
  for (size_t k = s.vb; k < s.ve && k < c.args.size(); ++k)
    certain.emplace_back(expand_one(c.args[k], *s.ctx, true).text, k);
  std::unordered_set<std::string> sure;
  for (Tok& t : flag_units(certain)) sure.insert(std::move(t.text));
  for (const Tok& t : flag_units({{after.value, npos}})) {
    if (auto it = old.find(t.text); it != old.end()) {
      old.erase(it);
      continue;
    }
    bool tc = !sure.count(t.text);
    if (cuda && is_arch_flag(t.text)) {
      Value v = value_at(u, locate(c, s.vb, s.ve, s.name_arg, t.text), t.text, tc);
      // Targets read CMAKE_CUDA_FLAGS at the end of their directory: this is where each flag came from.
      if (name == "CMAKE_CUDA_FLAGS") cuda_flag_origin_[t.text] = v;
      add(res_.facts.cuda_arch_flags, "arch", std::move(v));
    }
    if (auto v = abi_value(t.text, true))
      add(res_.facts.abi_defines, "abi", "", value_at(u, locate(c, s.vb, s.ve, s.name_arg, kAbiMacro), *v, tc));
  }
}

void Evaluator::do_project(const Unit& u, const Command& c, const Ctx& ctx) {
  auto a = expand_args(c, ctx);
  if (a.empty()) return;
  put("PROJECT_NAME", {a[0].text, a[0].uncertain || cond_depth_ > 0});
  put("PROJECT_SOURCE_DIR", {src_dir_});
  put(a[0].text + "_SOURCE_DIR", {src_dir_});
  if (!resolve("CMAKE_PROJECT_NAME")) put("CMAKE_PROJECT_NAME", {a[0].text, a[0].uncertain});
  bool keywords = false, langs = true;
  for (size_t k = 1; k < a.size(); ++k) {
    const std::string& t = a[k].text;
    if (t == "VERSION" || t == "DESCRIPTION" || t == "HOMEPAGE_URL") {
      if (t == "VERSION" && k + 1 < a.size()) put("PROJECT_VERSION", {a[k + 1].text, a[k + 1].uncertain});
      keywords = true;
      langs = false;
      ++k;
    } else if (t == "LANGUAGES") {
      keywords = langs = true;
    } else if (langs && t == "CUDA") {
      first(res_.facts.cuda_language, value_at(u, c.args[a[k].src].span, "CUDA", a[k].uncertain));
      if (!a[k].uncertain && cond_depth_ == 0) cuda_enabled(u, c.args[a[k].src].span);
    }
  }
  (void)keywords;
}

// CMake 3.18+ (policy CMP0104, NEW under cmake_minimum_required 3.18 or later) sets an unset
// CMAKE_CUDA_ARCHITECTURES to the compiler's default when CUDA is enabled: `if(NOT
// CMAKE_CUDA_ARCHITECTURES)` after project() is then false.
void Evaluator::cuda_enabled(const Unit& u, Span at) {
  if (!res_.facts.cmake_minimum_required || res_.facts.cmake_minimum_required->conditional ||
      version_compare(res_.facts.cmake_minimum_required->value, "3.18") < 0)
    return;
  if (resolve("CMAKE_CUDA_ARCHITECTURES")) return;
  if (const Entry* e = find_entry("CMAKE_CUDA_ARCHITECTURES", scopes_.size() - 1); e && e->state == Entry::State::Unknown)
    return;
  Var v;
  if (options_.cuda_default_architectures) v.value = *options_.cuda_default_architectures;
  else v.uncertain = true;
  v.origin = cuda_default_origin_ = new_origin({u.display, at});
  put("CMAKE_CUDA_ARCHITECTURES", std::move(v));
}

void Evaluator::note_cuda_default_decided(const Unit& u, const Command& c) {
  if (res_.facts.cuda_default_decided || !holds_cuda_default(resolve("CMAKE_CUDA_ARCHITECTURES"))) return;
  if (std::none_of(c.args.begin(), c.args.end(),
                   [](const auto& a) { return a.raw.find("CMAKE_CUDA_ARCHITECTURES") != std::string::npos; }))
    return;
  res_.facts.cuda_default_decided = Value{c.name, Origin{u.display, c.name_span}, cond_depth_ > 0};
}

void Evaluator::do_find_package(const Unit& u, const Command& c, const Ctx& ctx) {
  auto a = expand_args(c, ctx);
  if (a.empty()) return;
  const std::string& pkg = a[0].text;
  Span at = c.args[a[0].src].span;
  if (pkg == "Torch") first(res_.facts.find_package_torch, value_at(u, at, "Torch", false));
  if (pkg == "CUDA") add(res_.facts.legacy_find_cuda, "legacy", value_at(u, at, "find_package(CUDA)", false));
  if (pkg == "CUDAToolkit" && a.size() > 1 && !a[1].text.empty() && is_digit(a[1].text[0])) {
    std::string v = a[1].text.substr(0, a[1].text.find("..."));
    first(res_.facts.cuda_toolkit_version, value_at(u, c.args[a[1].src].span, v, a[1].uncertain));
  }
  set_unknown(pkg + "_FOUND");
}

// set_property(TARGET ...) / set_target_properties / set_property(DIRECTORY ...) values.
void Evaluator::property(const Unit& u, const Command& c, const std::vector<std::string>& targets,
                         const std::string& prop, const std::vector<Arg>& a, size_t vb, size_t ve, const Ctx& ctx,
                         bool is_target, bool append) {
  if (vb > ve || ve > a.size()) return;
  size_t rb = vb < ve ? a[vb].src : 0, re = vb < ve ? a[ve - 1].src + 1 : 0;
  if (prop == "CUDA_ARCHITECTURES" && is_target) {
    Var v = value_of(a, vb, ve);
    for (const auto& t : targets)
      add(res_.facts.target_cuda_architectures, "tca", t, value_at(u, span_of(c, rb, re, 0), v.value, v.uncertain));
    target_arch_property(u, c, targets, a, vb, ve, append);
  } else if (prop == "COMPILE_DEFINITIONS") {
    for (const auto& t : targets) defines_from_args(u, c, rb, re, ctx, t, false);
    if (!is_target) return;
    std::vector<Value> defs = definition_values(u, c, rb, re, ctx, false);
    for (const auto& name : targets)
      for (Target* t : targets_named(name)) t->compile_definitions.insert(t->compile_definitions.end(), defs.begin(), defs.end());
  } else if (prop == "COMPILE_OPTIONS" || prop == "COMPILE_FLAGS") {
    std::vector<Value> flags;
    for (const auto& t : targets) flags_from_args(u, c, rb, re, ctx, t, true, true, &flags);
    if (!is_target) return;
    for (const auto& name : targets)
      for (Target* t : targets_named(name)) t->cuda_flags.insert(t->cuda_flags.end(), flags.begin(), flags.end());
  }
}

void Evaluator::do_set_property(const Unit& u, const Command& c, const Ctx& ctx) {
  auto a = expand_args(c, ctx);
  if (a.empty()) return;
  bool target = kw(a, 0, "TARGET"), dir = kw(a, 0, "DIRECTORY"), source = kw(a, 0, "SOURCE");
  if (!target && !dir && !source) return;
  std::vector<std::string> targets, dirs;
  bool append = false;
  size_t k = 1;
  for (; k < a.size() && !kw(a, k, "PROPERTY"); ++k) {
    if (kw(a, k, "APPEND") || kw(a, k, "APPEND_STRING")) append = true;
    else if (source && (kw(a, k, "DIRECTORY") || kw(a, k, "TARGET_DIRECTORY"))) dirs = property_dirs(a, k);
    else if (target || source) targets.push_back(a[k].text);
    if (k >= a.size()) break;
  }
  if (k + 1 >= a.size()) return;
  if (source) {
    if (dirs.empty()) dirs = {src_dir_};
    return source_property(u, c, targets, dirs, a[k + 1].text, a, k + 2, a.size(), append);
  }
  if (dir) targets = {""};
  property(u, c, targets, a[k + 1].text, a, k + 2, a.size(), ctx, target, append);
}

void Evaluator::do_set_target_properties(const Unit& u, const Command& c, const Ctx& ctx) {
  auto a = expand_args(c, ctx);
  size_t k = 0;
  std::vector<std::string> targets;
  for (; k < a.size() && !kw(a, k, "PROPERTIES"); ++k) targets.push_back(a[k].text);
  for (k = k + 1; k + 1 < a.size(); k += 2) property(u, c, targets, a[k].text, a, k + 1, k + 2, ctx, true);
}

void Evaluator::do_link(const Unit& u, const Command& c, const Ctx& ctx) {
  if (c.args.empty()) return;
  std::string target = expand_one(c.args[0], ctx).text;
  static constexpr std::string_view kKeywords[] = {"PRIVATE", "PUBLIC", "INTERFACE", "LINK_PRIVATE",
                                                   "LINK_PUBLIC", "LINK_INTERFACE_LIBRARIES", "debug", "optimized",
                                                   "general"};
  for (size_t k = 1; k < c.args.size(); ++k) {
    const Argument& arg = c.args[k];
    if (arg.kind == Argument::Kind::Unquoted &&
        std::find(std::begin(kKeywords), std::end(kKeywords), arg.raw) != std::end(kKeywords))
      continue;
    Expanded x = expand_one(arg, ctx);
    bool torch = (x.taint & kTorchLibs) != 0;
    for (const auto& el : split_list(strip_genex(x.text), false)) torch = torch || el == "torch" || el == "Torch::Torch";
    if (torch && linked_.insert(target).second)
      res_.facts.torch_linked_targets.push_back({target, value_at(u, arg.span, arg.raw, false)});
  }
}

}  // namespace cudalint::cmake::detail
