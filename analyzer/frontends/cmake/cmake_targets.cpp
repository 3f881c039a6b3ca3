// CMake front-end, evaluator: build targets (Facts::targets) — what each target compiles and with
// which archs, flags and definitions — and the -D cache entries of a cmake command line.
//
// CMake's timing is kept where it decides the answer: CUDA_ARCHITECTURES and add_compile_options
// are copied into a target when it is created; CMAKE_CUDA_FLAGS, add_definitions and source file
// properties are read at generate time, i.e. as they stand at the end of the target's directory
// (source properties: at the end of the whole project, in the target's directory scope).
#include <algorithm>
#include <charconv>

#include <fmt/format.h>

#include "analyzer/frontends/cmake/cmake_evaluator.h"

namespace cudalint::cmake {

std::optional<std::pair<std::string, std::string>> parse_cache_definition(std::string_view word) {
  if (word.starts_with("-D")) word.remove_prefix(2);
  size_t eq = word.find('=');
  if (eq == std::string_view::npos) return std::nullopt;
  std::string_view lhs = word.substr(0, eq);  // NAME or NAME:TYPE
  std::string name(lhs.substr(0, lhs.find(':')));
  if (name.empty()) return std::nullopt;
  return std::pair{std::move(name), std::string(word.substr(eq + 1))};
}

namespace detail {

namespace {

constexpr size_t kValueCost = 64;  // work charged per Value copied, beyond its text

size_t cost(const std::vector<Value>& v) {
  size_t n = 0;
  for (const auto& x : v) n += x.value.size() + kValueCost;
  return n;
}

// Keywords of the target-creating commands that are not sources; `takes_value` for those
// followed by a value (NB_DOMAIN x, USE_SABI 3.12).
bool target_keyword(std::string_view cmd, std::string_view w, bool& takes_value) {
  takes_value = false;
  static constexpr std::string_view kLibrary[] = {"STATIC", "SHARED", "MODULE", "OBJECT", "EXCLUDE_FROM_ALL", "WIN32",
                                                  "MACOSX_BUNDLE"};
  static constexpr std::string_view kPybind[] = {"MODULE", "SHARED", "EXCLUDE_FROM_ALL", "NO_EXTRAS", "SYSTEM",
                                                 "THIN_LTO", "OPT_SIZE", "WITHOUT_SOABI"};
  static constexpr std::string_view kPython[] = {"STATIC", "SHARED", "MODULE", "WITH_SOABI"};
  static constexpr std::string_view kNanobind[] = {"NB_STATIC", "NB_SHARED", "STABLE_ABI", "FREE_THREADED", "NOSTRIP",
                                                   "NOMINSIZE", "LTO", "PROTECT_STACK", "NB_SUPPRESS_WARNINGS"};
  auto in = [&](const auto& list) { return std::find(std::begin(list), std::end(list), w) != std::end(list); };
  if (cmd == "pybind11_add_module") return in(kPybind);
  if (cmd == "python_add_library" || cmd == "python3_add_library") {
    takes_value = w == "USE_SABI";
    return takes_value || in(kPython);
  }
  if (cmd == "nanobind_add_module") {
    takes_value = w == "NB_DOMAIN";
    return takes_value || in(kNanobind);
  }
  return in(kLibrary);
}

}  // namespace

uint32_t Evaluator::new_origin(Origin o) {
  charge(o.path.size() + kValueCost);
  origins_.push_back(std::move(o));
  return static_cast<uint32_t>(origins_.size() - 1);
}

// The variables whose writes a target's facts point back at.
bool Evaluator::tracks_origin(std::string_view name) {
  return name == "CMAKE_CUDA_ARCHITECTURES" || name == "CMAKE_CUDA_FLAGS" || name == "CUDA_NVCC_FLAGS";
}

// -D entries are in the cache before the first command runs, and carry facts like a set() would.
void Evaluator::seed_cache() {
  for (const auto& [name, val] : options_.cache_definitions) {
    if (name.empty()) continue;
    charge(name.size() + val.value.size());
    Value fact{val.value, val.origin, val.conditional};
    if (name == "CMAKE_CUDA_ARCHITECTURES") add(res_.facts.cmake_cuda_architectures, "cca", fact);
    if (name == "TORCH_CUDA_ARCH_LIST") add(res_.facts.torch_cuda_arch_list, "tcal", fact);
    if (name == "CMAKE_CUDA_FLAGS")
      for (const Tok& t : flag_units({{val.value, npos}}))
        if (is_arch_flag(t.text)) {
          Value f{t.text, val.origin, val.conditional};
          cuda_flag_origin_[t.text] = f;
          add(res_.facts.cuda_arch_flags, "arch", std::move(f));
        }
    cache_[name] = Var{val.value, val.conditional, 0, new_origin(val.origin)};
  }
}

// A new directory scope (the top level, add_subdirectory) starts with its parent's directory
// properties as they are now.
void Evaluator::push_dir() {
  DirState d;
  if (!dirs_.empty()) {
    const DirState& p = dirs_.back();
    charge(cost(p.compile_options) + cost(p.definitions) + cost(p.define_flags));
    if (!over_budget()) {
      d.compile_options = p.compile_options;
      d.definitions = p.definitions;
      d.define_flags = p.define_flags;
    }
  }
  dirs_.push_back(std::move(d));
}

// The end of a directory: its targets receive what CMake reads per directory at generate time.
void Evaluator::finish_dir() {
  if (dirs_.empty()) return;
  DirState d = std::move(dirs_.back());
  dirs_.pop_back();
  if (d.targets.empty()) return;
  std::vector<Value> flags;  // CMAKE_CUDA_FLAGS's arch flags; an empty origin stands for the target's
  if (const Var* v = resolve("CMAKE_CUDA_FLAGS")) {
    charge(v->value.size());
    if (!over_budget())
      for (const Tok& t : flag_units({{v->value, npos}})) {
        if (!is_arch_flag(t.text)) continue;
        auto it = cuda_flag_origin_.find(t.text);
        if (it != cuda_flag_origin_.end()) flags.push_back(it->second);
        else flags.push_back(Value{t.text, v->origin ? origins_[v->origin] : Origin{}, v->uncertain});
      }
  }
  size_t each = cost(flags) + cost(d.define_flags) + cost(d.definitions);
  for (size_t i : d.targets) {
    charge(each);
    if (over_budget()) return;
    Target& t = res_.facts.targets[i];
    if (!t.command.starts_with("cuda_add_")) {  // FindCUDA's nvcc commands do not read CMAKE_CUDA_FLAGS
      for (Value f : flags) {
        if (f.origin.path.empty()) f.origin = t.origin;
        t.cuda_flags.push_back(std::move(f));
      }
    }
    t.cuda_flags.insert(t.cuda_flags.end(), d.define_flags.begin(), d.define_flags.end());
    t.compile_definitions.insert(t.compile_definitions.begin(), d.definitions.begin(), d.definitions.end());
  }
}

// Source file properties are read at generate time, from the scope of the target's directory.
void Evaluator::attach_source_props() {
  if (source_props_.empty()) return;
  for (Target& t : res_.facts.targets)
    for (TargetSource& s : t.sources) {
      auto it = source_props_.find(t.source_dir + '\x1f' + s.path);
      if (it == source_props_.end()) continue;
      const SourceProps& p = it->second;
      charge(cost(p.options) + cost(p.flags) + cost(p.definitions));
      if (over_budget()) return;
      s.compile_options = p.options;
      s.compile_options.insert(s.compile_options.end(), p.flags.begin(), p.flags.end());
      s.compile_definitions = p.definitions;
    }
}

// Where the name in `a` is written: in `c` itself when literal, else (it came in through a user
// function's or macro's arguments) at the outermost call that passed it down.
Evaluator::Written Evaluator::written_at(const Unit& u, const Command& c, const Arg& a) {
  Written w{&u, &c, a.src};
  if (a.plain) return w;
  for (size_t k = calls_.size(); k-- > 0;) {
    const CallSite& cs = calls_[k];
    if (cs.by_text.empty() && !cs.args->empty()) {
      charge(cs.args->size() * kValueCost);
      for (size_t i = 0; i < cs.args->size(); ++i) cs.by_text.emplace((*cs.args)[i].text, i);
    }
    auto it = cs.by_text.find(a.text);
    if (it == cs.by_text.end()) break;
    const Arg& passed = (*cs.args)[it->second];
    w = {cs.u, cs.c, passed.src};
    if (passed.plain) break;
  }
  return w;
}

// CMake's target names are unique, but the evaluator may make several targets of one name:
// branches it cannot decide (each its own add_* call) and one add_* run again under a name it
// cannot tell apart (a loop, a function called per variant). A later command means, of each
// call, the target it made last; applying it to every earlier one grows a target's settings
// with the square of the calls (whisper.cpp's CPU variants: 1,000 definitions per target).
std::vector<size_t> Evaluator::target_ids(const std::string& name) const {
  std::vector<size_t> out;
  auto it = target_index_.find(name);
  if (it == target_index_.end()) return out;
  const std::vector<size_t>& ids = it->second;
  for (size_t k = ids.size(); k-- > 0;) {
    const Origin& o = res_.facts.targets[ids[k]].origin;
    if (std::none_of(out.begin(), out.end(), [&](size_t j) { return res_.facts.targets[j].origin == o; }))
      out.push_back(ids[k]);
  }
  std::reverse(out.begin(), out.end());  // creation order
  return out;
}

std::vector<Target*> Evaluator::targets_named(const std::string& name) {
  std::vector<Target*> out;
  for (size_t i : target_ids(name)) out.push_back(&res_.facts.targets[i]);
  return out;
}

void Evaluator::do_add_target(const Unit& u, const Command& c, const Ctx& ctx) {
  auto a = expand_args(c, ctx, 0, true);
  if (a.empty() || is_placeholder(a[0]) || a[0].text.empty()) return;
  const std::string& cmd = c.name;  // a built-in (a user function of the same name runs instead)
  bool legacy = cmd.starts_with("cuda_add_");
  std::vector<const Arg*> srcs;
  std::vector<std::pair<std::string, size_t>> options;  // cuda_add_*'s OPTIONS (nvcc flags)
  std::vector<char> options_cond(a.size(), 0);           // by index in a: only for one configuration
  int in_options = 0;  // 1 OPTIONS, 2 after a configuration keyword (only for that configuration)
  for (size_t k = 1; k < a.size(); ++k) {
    const std::string& w = a[k].text;
    bool takes_value = false;
    if (!a[k].quoted && (w == "ALIAS" || w == "IMPORTED" || w == "INTERFACE") && !legacy) return;  // not compiled here
    if (legacy && !a[k].quoted && w == "OPTIONS") {
      in_options = 1;
      continue;
    }
    if (legacy && in_options && !a[k].quoted &&
        (w == "RELEASE" || w == "DEBUG" || w == "MINSIZEREL" || w == "RELWITHDEBINFO")) {
      in_options = 2;
      continue;
    }
    if (in_options) {
      options.emplace_back(w, k);
      options_cond[k] = in_options == 2 || a[k].uncertain;
      continue;
    }
    if (!a[k].quoted && target_keyword(cmd, w, takes_value)) {
      k += takes_value;
      continue;
    }
    srcs.push_back(&a[k]);
  }
  charge(a[0].text.size() + src_dir_.size() + 4 * kValueCost);
  Written at = written_at(u, c, a[0]);
  Target t;
  t.name = a[0].text;
  t.command = cmd;
  t.origin = {at.u->display, at.c->name_span};
  t.source_dir = src_dir_;
  t.conditional = cond_depth_ > 0 || a[0].uncertain;
  if (legacy) {
    // FindCUDA reads CUDA_NVCC_FLAGS when the target is made, plus the call's OPTIONS.
    if (const Var* v = resolve("CUDA_NVCC_FLAGS"))
      for (const Tok& tok : flag_units({{v->value, npos}}))
        if (is_arch_flag(tok.text))
          t.cuda_flags.push_back({tok.text, v->origin ? origins_[v->origin] : t.origin, v->uncertain});
    for (const Tok& tok : flag_units(options))
      if (is_arch_flag(tok.text) && tok.src < a.size())
        t.cuda_flags.push_back(value_at(u, c.args[a[tok.src].src].span, tok.text, options_cond[tok.src] != 0));
  } else {
    const Var* v = resolve("CMAKE_CUDA_ARCHITECTURES");
    if (holds_cuda_default(v)) {
      // still the compiler's default: as if unset
    } else if (v) {
      t.cuda_architectures = Value{v->value, v->origin ? origins_[v->origin] : t.origin, v->uncertain};
      t.cuda_architectures_unknown = (v->taint & kOpaque) != 0;
    } else if (const Entry* e = find_entry("CMAKE_CUDA_ARCHITECTURES", scopes_.size() - 1);
               e && e->state == Entry::State::Unknown) {
      t.cuda_architectures_unknown = true;  // computed by something we do not run
    }
    const DirState& d = dirs_.back();
    charge(cost(d.compile_options));
    if (!over_budget()) t.cuda_flags = d.compile_options;
  }
  size_t idx = res_.facts.targets.size();
  res_.facts.targets.push_back(std::move(t));
  // Undecided regions other than `if` branches (loops, early returns) are not numbered: then
  // no later setting counts as within the target's branches.
  target_regions_.resize(idx + 1);
  if (cond_depth_ == static_cast<int>(if_regions_.size())) target_regions_[idx] = if_regions_;
  else target_regions_[idx] = {UINT32_MAX};
  target_index_[a[0].text].push_back(idx);
  dirs_.back().targets.push_back(idx);
  add_sources(idx, srcs, u, c);
}

void Evaluator::add_sources(size_t ti, const std::vector<const Arg*>& srcs, const Unit& u, const Command& c) {
  for (const Arg* ap : srcs) {
    if (over_budget()) return;
    const Arg& a = *ap;
    Target& t = res_.facts.targets[ti];
    if (a.taint & kOpaque) t.sources_complete = false;
    if (is_placeholder(a)) continue;
    bool genex = a.text.find("$<") != std::string::npos;
    std::vector<std::string> items;
    if (genex) {
      bool dropped = false;
      items = split_list(strip_genex(a.text, &dropped), false);
      if (dropped) t.sources_complete = false;
    } else {
      items.push_back(a.text);
    }
    for (const std::string& item : items) {
      if (item.empty()) continue;
      if (size_t m = item.find(kGlobMark); m != std::string::npos) {
        // A file(GLOB) result: its files are not known here, its patterns are.
        t.sources_complete = false;
        size_t id = 0;
        std::string_view digits = std::string_view(item).substr(m + kGlobMark.size());
        auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), id);
        if (m != 0 || ec != std::errc() || end != digits.data() + digits.size() || id >= globs_.size()) continue;
        for (const Glob& g : globs_[id]) {
          charge(g.pattern.size() + kValueCost);
          if (target_sources_seen_.insert(fmt::format("{}\x1fglob\x1f{}\x1f{}", ti, g.recurse, g.pattern)).second)
            t.globs.push_back(g);
        }
        continue;
      }
      std::string path = join_path(src_dir_, item);
      charge(path.size() + kValueCost);
      if (!target_sources_seen_.insert(fmt::format("{}\x1f{}", ti, path)).second) continue;
      Written w = written_at(u, c, a);
      TargetSource s;
      s.path = std::move(path);
      s.origin = {w.u->display, w.c->args[w.src].span};
      s.conditional = genex || a.uncertain || cond_depth_ > 0;
      t.sources.push_back(std::move(s));
    }
  }
}

// target_sources(t [PRIVATE|PUBLIC|INTERFACE] items... [FILE_SET ...]): the items that t compiles.
void Evaluator::do_target_sources(const Unit& u, const Command& c, const Ctx& ctx) {
  auto a = expand_args(c, ctx, 0, true);
  if (a.empty()) return;
  std::vector<size_t> idx = target_ids(a[0].text);
  if (idx.empty()) return;
  std::vector<const Arg*> srcs;
  bool iface = false;
  for (size_t k = 1; k < a.size(); ++k) {
    if (kw(a, k, "FILE_SET")) break;  // headers for installation and modules, not listed sources
    if (kw(a, k, "PRIVATE") || kw(a, k, "PUBLIC") || kw(a, k, "INTERFACE")) {
      iface = a[k].text == "INTERFACE";
      continue;
    }
    if (!iface) srcs.push_back(&a[k]);
  }
  for (size_t i : idx) add_sources(i, srcs, u, c);
}

// file(GLOB|GLOB_RECURSE var [LIST_DIRECTORIES b] [RELATIVE p] [CONFIGURE_DEPENDS] patterns...):
// var holds a mark standing for the patterns, followed into the targets that use it. Its files
// are unknown, so the variable stays uncertain (and kOpaque) for everything else.
void Evaluator::do_file_glob(const Unit& u, const Command& c, const Ctx& ctx) {
  auto a = expand_args(c, ctx);
  if (a.size() < 2) return;
  bool recurse = a[0].text == "GLOB_RECURSE";
  std::vector<Glob> globs;
  for (size_t k = 2; k < a.size(); ++k) {
    if (kw(a, k, "LIST_DIRECTORIES") || kw(a, k, "RELATIVE")) {
      ++k;
      continue;
    }
    if (kw(a, k, "CONFIGURE_DEPENDS") || kw(a, k, "FOLLOW_SYMLINKS") || a[k].text.empty()) continue;
    charge(src_dir_.size() + a[k].text.size() + kValueCost);
    globs.push_back({join_path(src_dir_, a[k].text), recurse, {u.display, c.args[a[k].src].span}});
  }
  Var v{std::string(kGlobMark) + std::to_string(globs_.size()), true, kOpaque};
  globs_.push_back(std::move(globs));
  set_var(a[1].text, std::move(v), nullptr);
}

// DIRECTORY dirs... / TARGET_DIRECTORY targets... of set_property(SOURCE) and
// set_source_files_properties, from a[k] (the keyword) on; k ends at the last one consumed.
std::vector<std::string> Evaluator::property_dirs(const std::vector<Arg>& a, size_t& k) {
  static constexpr std::string_view kStop[] = {"PROPERTY", "PROPERTIES", "DIRECTORY", "TARGET_DIRECTORY", "APPEND",
                                               "APPEND_STRING"};
  bool of_targets = kw(a, k, "TARGET_DIRECTORY");
  std::vector<std::string> out;
  while (k + 1 < a.size() &&
         !(!a[k + 1].quoted && std::find(std::begin(kStop), std::end(kStop), a[k + 1].text) != std::end(kStop))) {
    ++k;
    if (!of_targets) out.push_back(join_path(src_dir_, a[k].text));
    else
      for (Target* t : targets_named(a[k].text)) out.push_back(t->source_dir);
  }
  return out;
}

// set_source_files_properties(files... [DIRECTORY d...] [TARGET_DIRECTORY t...] PROPERTIES k v ...)
void Evaluator::do_source_files_properties(const Unit& u, const Command& c, const Ctx& ctx) {
  auto a = expand_args(c, ctx);
  std::vector<std::string> files, dirs;
  size_t k = 0;
  for (; k < a.size() && !kw(a, k, "PROPERTIES"); ++k) {
    if (kw(a, k, "DIRECTORY") || kw(a, k, "TARGET_DIRECTORY")) {
      auto d = property_dirs(a, k);
      dirs.insert(dirs.end(), d.begin(), d.end());
      continue;
    }
    files.push_back(a[k].text);
  }
  if (dirs.empty()) dirs = {src_dir_};
  for (k = k + 1; k + 1 < a.size(); k += 2) source_property(u, c, files, dirs, a[k].text, a, k + 1, k + 2, false);
}

void Evaluator::source_property(const Unit& u, const Command& c, const std::vector<std::string>& files,
                                const std::vector<std::string>& dirs, const std::string& prop,
                                const std::vector<Arg>& a, size_t vb, size_t ve, bool append) {
  int which = prop == "COMPILE_OPTIONS" ? 0 : prop == "COMPILE_FLAGS" ? 1 : prop == "COMPILE_DEFINITIONS" ? 2 : -1;
  if (which < 0) return;
  std::vector<Value> vals;
  for (size_t k = vb; k < ve && k < a.size(); ++k)
    for (auto& item : split_charged(a[k].text, false))
      vals.push_back({std::move(item), {u.display, c.args[a[k].src].span}, a[k].uncertain || cond_depth_ > 0});
  size_t each = cost(vals);
  for (const auto& d : dirs)
    for (const auto& f : files) {
      charge(each + d.size() + f.size());
      if (over_budget()) return;
      SourceProps& p = source_props_[d + '\x1f' + join_path(src_dir_, f)];
      std::vector<Value>& slot = which == 0 ? p.options : which == 1 ? p.flags : p.definitions;
      if (!append) slot.clear();
      slot.insert(slot.end(), vals.begin(), vals.end());
    }
}

// Definitions in command arguments [b, e) (not INTERFACE ones), one Value each, `-D` removed;
// with `need_dash` (add_definitions) only the arguments that are `-D`/`/D` definitions.
std::vector<Value> Evaluator::definition_values(const Unit& u, const Command& c, size_t b, size_t e, const Ctx& ctx,
                                                bool need_dash) {
  std::vector<Value> out;
  bool iface = false;
  for (size_t k = b; k < e && k < c.args.size(); ++k) {
    const Argument& arg = c.args[k];
    if (arg.kind == Argument::Kind::Unquoted && (arg.raw == "PRIVATE" || arg.raw == "PUBLIC" || arg.raw == "INTERFACE")) {
      iface = arg.raw == "INTERFACE";
      continue;
    }
    if (iface) continue;
    Expanded x = expand_one(arg, ctx);
    bool genex = x.text.find("$<") != std::string::npos;
    for (const std::string& el : split_charged(genex ? strip_genex(x.text) : x.text, false)) {
      std::string_view d = el;
      while (!d.empty() && is_space(d.front())) d.remove_prefix(1);
      while (!d.empty() && is_space(d.back())) d.remove_suffix(1);
      bool dashed = d.starts_with("-D") || d.starts_with("/D");
      if (need_dash && !dashed) continue;
      if (dashed) d.remove_prefix(2);
      if (d.empty()) continue;
      charge(d.size() + kValueCost);
      out.push_back(value_at(u, arg.span, std::string(d), x.uncertain || genex));
    }
  }
  return out;
}

// CUDA_ARCHITECTURES set on targets: replaces (or, with APPEND, extends) what they copied at creation.
void Evaluator::target_arch_property(const Unit& u, const Command& c, const std::vector<std::string>& targets,
                                     const std::vector<Arg>& a, size_t vb, size_t ve, bool append) {
  if (vb > ve || ve > a.size()) return;
  Var v = value_of(a, vb, ve);
  size_t rb = vb < ve ? a[vb].src : 0, re = vb < ve ? a[ve - 1].src + 1 : 0;
  const Value val_any = value_at(u, span_of(c, rb, re, 0), v.value, v.uncertain);
  bool opaque = (v.taint & kOpaque) != 0;
  for (const auto& name : targets)
    for (Target* t : targets_named(name)) {
      if (t->command.starts_with("cuda_add_")) continue;  // FindCUDA does not read the property
      // Set in the branches that made the target: certain for the target whenever it exists.
      Value val = val_any;
      if (val.conditional && !v.uncertain &&
          within_target_regions(static_cast<size_t>(t - res_.facts.targets.data())))
        val.conditional = false;
      if (append && t->cuda_architectures) {
        Value joined = val;
        const std::string& old = t->cuda_architectures->value;
        joined.value = old.empty() ? val.value : val.value.empty() ? old : old + ";" + val.value;
        joined.conditional = val.conditional || t->cuda_architectures->conditional;
        t->cuda_architectures = std::move(joined);
        t->cuda_architectures_unknown = t->cuda_architectures_unknown || opaque;
      } else {
        t->cuda_architectures = val;
        t->cuda_architectures_unknown = opaque;
      }
    }
}

bool Evaluator::within_target_regions(size_t target_index) const {
  if (target_index >= target_regions_.size() || cond_depth_ != static_cast<int>(if_regions_.size())) return false;
  const std::vector<uint32_t>& made = target_regions_[target_index];
  return if_regions_.size() <= made.size() && std::equal(if_regions_.begin(), if_regions_.end(), made.begin());
}

}  // namespace detail

}  // namespace cudalint::cmake
