// CMake front-end, evaluator half (see cmake.h; the parser is in cmake.cpp). This file holds the
// evaluator's entry, the files it reads, its variables, expansion and the command dispatch; the
// rest is split by concern (cmake_evaluator.h lists where).
#include <algorithm>
#include <memory>

#include <fmt/format.h>

#include "analyzer/frontends/cmake/cmake.h"
#include "analyzer/frontends/cmake/cmake_evaluator.h"

namespace cudalint::cmake {

namespace detail {

EvalResult Evaluator::run(const std::string& top) {
  std::string abs = normalize(top);
  const Unit* u = unit_for(abs);
  if (!u) {
    res_.errors.push_back({{display_(abs), {0, 0}}, fmt::format("cannot read the top-level file `{}`", shown(abs))});
    return std::move(res_);
  }
  scopes_.emplace_back();
  std::string dir = dirname(abs);
  for (const char* n : {"CMAKE_SOURCE_DIR", "CMAKE_CURRENT_SOURCE_DIR", "CMAKE_CURRENT_LIST_DIR", "PROJECT_SOURCE_DIR"})
    put(n, {dir});
  put("CMAKE_CURRENT_LIST_FILE", {abs});
  src_dir_ = dir;
  list_dir_ = dir;
  seed_cache();
  push_dir();
  int extra = 0;
  Ctx ctx;
  ctx.return_extra = &extra;
  enter(*u);
  exec_range(*u, 0, u->cmds.size(), ctx);
  finish_dir();
  attach_source_props();
  return std::move(res_);
}

const Unit* Evaluator::unit_for(const std::string& abs) {
  auto it = units_.find(abs);
  if (it != units_.end()) return it->second.get();
  std::optional<std::string_view> text = load_(abs);
  if (!text) {
    units_.emplace(abs, nullptr);
    return nullptr;
  }
  auto u = std::make_unique<Unit>();
  u->abs = abs;
  u->display = display_(abs);
  u->dir = dirname(abs);
  ParseResult pr = parse(*text);
  for (auto& e : pr.errors) res_.errors.push_back({{u->display, e.span}, std::move(e.message)});
  u->cmds = std::move(pr.file.commands);
  structure(*u);
  const Unit* p = u.get();
  units_.emplace(abs, std::move(u));
  return p;
}

void Evaluator::enter(const Unit& u) {
  if (read_.insert(u.abs).second) res_.files_read.push_back(u.abs);
}

int Evaluator::opener_kind(std::string_view n) {
  static constexpr std::string_view kOpen[] = {"if", "foreach", "while", "function", "macro", "block"};
  for (int k = 0; k < 6; ++k)
    if (n == kOpen[k]) return k;
  return -1;
}
int Evaluator::ender_kind(std::string_view n) {
  static constexpr std::string_view kEnd[] = {"endif", "endforeach", "endwhile", "endfunction", "endmacro", "endblock"};
  for (int k = 0; k < 6; ++k)
    if (n == kEnd[k]) return k;
  return -1;
}

// Matches block openers with their ends (and if-branches) once per file, iteratively.
void Evaluator::structure(Unit& u) {
  static constexpr std::string_view kOpen[] = {"if", "foreach", "while", "function", "macro", "block"};
  static constexpr std::string_view kEnd[] = {"endif", "endforeach", "endwhile", "endfunction", "endmacro", "endblock"};
  size_t n = u.cmds.size();
  u.next.assign(n, static_cast<uint32_t>(n));
  u.end.assign(n, static_cast<uint32_t>(n));
  struct Open {
    int kind;
    size_t at, last;
  };
  std::vector<Open> st;
  auto err = [&](size_t i, std::string m) { res_.errors.push_back({{u.display, u.cmds[i].name_span}, std::move(m)}); };
  for (size_t i = 0; i < n; ++i) {
    const std::string& name = u.cmds[i].name;
    if (int k = opener_kind(name); k >= 0) {
      st.push_back({k, i, i});
    } else if (name == "elseif" || name == "else") {
      if (st.empty() || st.back().kind != 0) {
        err(i, fmt::format("`{}` without a matching `if`", name));
        continue;
      }
      u.next[st.back().last] = static_cast<uint32_t>(i);
      st.back().last = i;
    } else if (int k = ender_kind(name); k >= 0) {
      auto match = std::find_if(st.rbegin(), st.rend(), [&](const Open& o) { return o.kind == k; });
      if (match == st.rend()) {
        err(i, fmt::format("`{}` without a matching `{}`", name, kOpen[k]));
        continue;
      }
      while (!st.empty()) {
        Open o = st.back();
        st.pop_back();
        u.next[o.last] = static_cast<uint32_t>(i);
        u.end[o.at] = static_cast<uint32_t>(i);
        if (o.kind == k) break;
        err(o.at, fmt::format("`{}` is not closed before `{}`: missing `{}`", kOpen[o.kind], name, kEnd[o.kind]));
      }
    }
  }
  for (const Open& o : st)
    err(o.at, fmt::format("`{}` is never closed: missing `{}`", kOpen[o.kind], kEnd[o.kind]));
}

// ---- variables -----------------------------------------------------------------------

// The binding of `name` seen from scope `top` down, or null.
const Entry* Evaluator::find_entry(const std::string& name, size_t top) const {
  for (size_t k = top + 1; k-- > 0;) {
    auto it = scopes_[k].find(name);
    if (it != scopes_[k].end()) return &it->second;
  }
  return nullptr;
}

// The value of `name` (normal variable, else cache), or null when unknown.
const Var* Evaluator::resolve(const std::string& name, size_t top) const {
  const Entry* e = find_entry(name, top);
  if (e && e->state == Entry::State::Known) return &e->var;
  if (e && e->state == Entry::State::Unknown) return nullptr;
  auto c = cache_.find(name);
  return c == cache_.end() ? nullptr : &c->second;
}

void Evaluator::set_unknown(const std::string& name) {
  if (!name.empty()) scopes_.back()[name] = Entry{Entry::State::Unknown, {}};
}

// set() in the current scope (or the parent's), recording the facts the write carries.
void Evaluator::set_var(const std::string& name, Var v, const Site* site, bool parent) {
  if (name.empty()) return;
  v.uncertain = v.uncertain || cond_depth_ > 0;
  if (parent && scopes_.size() < 2) return;  // PARENT_SCOPE at the top level does nothing
  size_t top = parent ? scopes_.size() - 2 : scopes_.size() - 1;
  std::optional<Var> before;
  if (const Var* b = resolve(name, top)) before = *b;
  if (parent) {
    // The current scope keeps its own value: copy what it sees before the parent changes.
    if (!scopes_.back().count(name)) {
      const Entry* e = find_entry(name, top);
      scopes_.back()[name] = e ? *e : Entry{Entry::State::Unset, {}};
    }
  }
  charge(v.value.size());  // `list(APPEND)` on a long list rewrites all of it
  if (site) {
    note_write(name, before ? &*before : nullptr, v, *site);
    if (tracks_origin(name)) v.origin = new_origin({site->u->display, span_of(*site->c, site->vb, site->ve, site->name_arg)});
  }
  scopes_[top][name] = Entry{Entry::State::Known, std::move(v)};
}

void Evaluator::unset_var(const std::string& name, bool parent) {
  if (parent && scopes_.size() < 2) return;
  size_t top = parent ? scopes_.size() - 2 : scopes_.size() - 1;
  if (parent && !scopes_.back().count(name)) {
    const Entry* e = find_entry(name, top);
    scopes_.back()[name] = e ? *e : Entry{Entry::State::Unset, {}};
  }
  // Under an undecidable condition the variable may or may not be unset afterwards.
  scopes_[top][name] = Entry{cond_depth_ > 0 ? Entry::State::Unknown : Entry::State::Unset, {}};
}

// ---- expansion -----------------------------------------------------------------------

// Work is counted where values are built, written and read as lists; evaluation stops at the
// next command once it passes the budget (const: conditions read lists too).
std::vector<std::string> Evaluator::split_charged(const std::string& value, bool keep_empty) const {
  charge(value.size());
  return split_list(value, keep_empty);
}

void Evaluator::append_ref(int kind, const std::string& name, const Ctx& ctx, bool certain_only, Expanded& out,
                           std::string& dst) {
  const Var* v = nullptr;
  std::optional<Var> env_v;
  bool known = true;
  if (kind == 0) {
    out.taint |= name_taint(name);
    if (ctx.macro) {
      auto it = ctx.macro->map.find(name);
      if (it != ctx.macro->map.end()) v = &it->second;
    }
    if (!v) v = resolve(name);
    known = v != nullptr;
  } else if (kind == 1) {
    auto it = env_.find(name);
    if (it == env_.end()) known = false;
    else if (it->second) v = &*it->second;  // otherwise explicitly unset: empty, and certain
  } else {
    auto it = cache_.find(name);
    if (it == cache_.end()) known = false;
    else v = &it->second;
  }
  if (!known) {
    out.uncertain = true;
    out.taint |= kOpaque;
    return;
  }
  if (!v) return;
  out.uncertain = out.uncertain || v->uncertain;
  out.taint |= v->taint;
  if (certain_only && v->uncertain) return;
  if (dst.size() + v->value.size() > kMaxValueBytes) {
    out.uncertain = true;
    return;
  }
  dst += v->value;
  charge(v->value.size());
}

// Variable references and escapes of a quoted/unquoted argument as written. Iterative, so
// `${a${b${c...}}}` of any depth costs no stack.
Expanded Evaluator::expand(std::string_view raw, bool quoted, const Ctx& ctx, bool certain_only) {
  Expanded out;
  struct Ref {
    int kind;  // 0 `${`, 1 `$ENV{`, 2 `$CACHE{`
    std::string name;
  };
  std::vector<Ref> st;
  auto sink = [&]() -> std::string& { return st.empty() ? out.text : st.back().name; };
  size_t n = raw.size();
  for (size_t i = 0; i < n;) {
    char c = raw[i];
    if (c == '\\' && i + 1 < n) {
      char d = raw[i + 1];
      if (quoted && d == '\n') {
        i += 2;
      } else if (quoted && d == '\r' && i + 2 < n && raw[i + 2] == '\n') {
        i += 3;
      } else {
        append_escape(d, sink());
        i += 2;
      }
      continue;
    }
    if (quoted && c == '\r' && i + 1 < n && raw[i + 1] == '\n') {
      sink() += '\n';
      i += 2;
      continue;
    }
    if (c == '$') {
      std::string_view rest = raw.substr(i + 1);
      int kind = rest.starts_with('{') ? 0 : rest.starts_with("ENV{") ? 1 : rest.starts_with("CACHE{") ? 2 : -1;
      if (kind >= 0) {
        st.push_back({kind, {}});
        i += kind == 0 ? 2 : kind == 1 ? 5 : 7;
        continue;
      }
    }
    if (c == '}' && !st.empty()) {
      Ref r = std::move(st.back());
      st.pop_back();
      append_ref(r.kind, r.name, ctx, certain_only, out, sink());
      ++i;
      continue;
    }
    std::string& s = sink();
    if (s.size() >= kMaxValueBytes) {
      out.uncertain = true;
      break;
    }
    s += c;
    ++i;
  }
  while (!st.empty()) {  // an unterminated reference stays as written
    Ref r = std::move(st.back());
    st.pop_back();
    std::string lit = (r.kind == 0 ? "${" : r.kind == 1 ? "$ENV{" : "$CACHE{") + r.name;
    sink() += lit;
  }
  charge(out.text.size());
  return out;
}

Expanded Evaluator::expand_one(const Argument& a, const Ctx& ctx, bool certain_only) {
  if (a.kind == Argument::Kind::Bracket) return {a.text, false, 0};
  return expand(a.raw, a.kind == Argument::Kind::Quoted, ctx, certain_only);
}

// Arguments as a command sees them: unquoted ones split into list elements (empty ones
// dropped, unless `keep_unknown` and the argument used something unknown).
std::vector<Arg> Evaluator::expand_args(const Command& c, const Ctx& ctx, size_t from, bool keep_unknown) {
  std::vector<Arg> out;
  for (size_t k = from; k < c.args.size(); ++k) {
    const Argument& a = c.args[k];
    if (a.kind == Argument::Kind::Bracket) {
      out.push_back({a.text, true, false, false, 0, k});
      continue;
    }
    Expanded e = expand(a.raw, a.kind == Argument::Kind::Quoted, ctx);
    if (a.kind == Argument::Kind::Quoted) {
      out.push_back({std::move(e.text), true, e.uncertain, false, e.taint, k});
      continue;
    }
    bool plain = a.raw.find('$') == std::string::npos;
    auto elems = split_list(e.text, false);
    if (elems.empty() && keep_unknown && e.uncertain) out.push_back({"", false, true, false, e.taint, k});
    for (auto& el : elems) out.push_back({std::move(el), false, e.uncertain, plain, e.taint, k});
  }
  return out;
}

Flow Evaluator::exec_command(const Unit& u, const Command& c, Ctx& ctx) {
  const std::string& n = c.name;
  if (auto it = callables_.find(n); it != callables_.end()) {
    Callable def = it->second;  // a copy: the body may redefine the command
    return call(u, c, def, ctx);
  }
  if (n == "set") return do_set(u, c, ctx);
  if (n == "unset") return do_unset(c, ctx);
  if (n == "option") return do_option(c, ctx);
  if (n == "list") return do_list(u, c, ctx);
  if (n == "string") return do_string(u, c, ctx);
  if (n == "include") return do_include(u, c, ctx);
  if (n == "add_subdirectory") return do_add_subdirectory(u, c, ctx);
  if (n == "cmake_parse_arguments") return do_parse_arguments(c, ctx);
  if (n == "return" || n == "break") {
    bool ret = n == "return";
    int base = ret ? ctx.return_base : ctx.loop_base;
    int* extra = ret ? ctx.return_extra : ctx.loop_extra;
    if (base < 0) return Flow::Normal;  // break() outside a loop
    if (cond_depth_ == base) return ret ? Flow::Return : Flow::Break;
    // Maybe taken: whatever follows in this frame only maybe runs.
    if (extra && *extra == 0) {
      *extra = 1;
      ++cond_depth_;
    }
    return Flow::Normal;
  }
  if (n == "project") do_project(u, c, ctx);
  else if (n == "enable_language") {
    auto a = expand_args(c, ctx);
    for (const auto& x : a)
      if (x.text == "CUDA") {
        first(res_.facts.cuda_language, value_at(u, c.args[x.src].span, "CUDA", x.uncertain));
        if (!x.uncertain && cond_depth_ == 0) cuda_enabled(u, c.args[x.src].span);
      }
  } else if (n == "cmake_minimum_required") {
    auto a = expand_args(c, ctx);
    for (size_t k = 0; k + 1 < a.size(); ++k)
      if (kw(a, k, "VERSION")) {
        std::string v = a[k + 1].text.substr(0, a[k + 1].text.find("..."));
        first(res_.facts.cmake_minimum_required, value_at(u, c.args[a[k + 1].src].span, v, a[k + 1].uncertain));
        break;
      }
  } else if (n == "find_package") {
    do_find_package(u, c, ctx);
  } else if (n == "set_property") {
    do_set_property(u, c, ctx);
  } else if (n == "set_target_properties") {
    do_set_target_properties(u, c, ctx);
  } else if (n == "target_compile_definitions" && !c.args.empty()) {
    std::string target = expand_one(c.args[0], ctx).text;
    defines_from_args(u, c, 1, c.args.size(), ctx, target, false);
    std::vector<Value> defs = definition_values(u, c, 1, c.args.size(), ctx, false);
    for (Target* t : targets_named(target)) t->compile_definitions.insert(t->compile_definitions.end(), defs.begin(), defs.end());
  } else if (n == "add_compile_definitions") {
    defines_from_args(u, c, 0, c.args.size(), ctx, "", false);
    std::vector<Value> defs = definition_values(u, c, 0, c.args.size(), ctx, false);
    dirs_.back().definitions.insert(dirs_.back().definitions.end(), defs.begin(), defs.end());
  } else if (n == "add_definitions") {
    // Definitions reach all the directory's targets at generate time, and so do other flags.
    std::vector<Value> flags;
    flags_from_args(u, c, 0, c.args.size(), ctx, "", false, true, &flags);
    dirs_.back().define_flags.insert(dirs_.back().define_flags.end(), flags.begin(), flags.end());
    std::vector<Value> defs = definition_values(u, c, 0, c.args.size(), ctx, true);
    dirs_.back().definitions.insert(dirs_.back().definitions.end(), defs.begin(), defs.end());
    for (size_t k = 0; k < c.args.size(); ++k)
      if (expand_one(c.args[k], ctx).taint & kTorchCxxFlags)
        add(res_.facts.torch_cxx_flags_uses, "tcf", value_at(u, c.args[k].span, c.args[k].raw, false));
  } else if (n == "target_compile_options" && !c.args.empty()) {
    std::string target = expand_one(c.args[0], ctx).text;
    std::vector<Value> flags;
    flags_from_args(u, c, 1, c.args.size(), ctx, target, true, true, &flags);
    for (Target* t : targets_named(target)) t->cuda_flags.insert(t->cuda_flags.end(), flags.begin(), flags.end());
  } else if (n == "add_compile_options") {
    std::vector<Value> flags;
    flags_from_args(u, c, 0, c.args.size(), ctx, "", true, true, &flags);
    dirs_.back().compile_options.insert(dirs_.back().compile_options.end(), flags.begin(), flags.end());
  } else if (n == "target_link_libraries") {
    do_link(u, c, ctx);
  } else if (n == "cuda_add_library" || n == "cuda_add_executable" || n == "cuda_compile" || n == "cuda_compile_ptx" ||
             n == "cuda_wrap_srcs" || n == "cuda_include_directories" || n == "cuda_add_cufft_to_target" ||
             n == "cuda_add_cublas_to_target") {
    add(res_.facts.legacy_find_cuda, "legacy", value_at(u, c.name_span, n, false));
    if (n == "cuda_compile" || n == "cuda_compile_ptx" || n == "cuda_wrap_srcs") unknown_outputs(c, ctx, {0});
    if (n == "cuda_add_library" || n == "cuda_add_executable") do_add_target(u, c, ctx);
  } else if (n == "add_library" || n == "add_executable" || n == "pybind11_add_module" || n == "python_add_library" ||
             n == "python3_add_library" || n == "nanobind_add_module" || n == "torch_cuda_based_add_library") {
    do_add_target(u, c, ctx);
  } else if (n == "target_sources") {
    do_target_sources(u, c, ctx);
  } else if (n == "set_source_files_properties") {
    do_source_files_properties(u, c, ctx);
  } else {
    unknown_writes(u, c, ctx);
  }
  return Flow::Normal;
}

}  // namespace detail

EvalResult evaluate(const std::string& top_level_abs_path, const FileLoader& load, const DisplayPath& display,
                    const EvalOptions& options) {
  return detail::Evaluator(load, display, options).run(top_level_abs_path);
}

}  // namespace cudalint::cmake
