// Compiled regions: the module table and name resolution over the per-file summaries (imports,
// attributes, methods through base classes, containers).
#include <algorithm>

#include "analyzer/model/compiled_regions_analysis.h"

namespace cudalint::model::regions {

// A unit's summary. A unit without one is recorded as missing and reads as empty: the run
// goes on, and is repeated once the missing units are summarised (find_graph_breaks).
const gb::Summary& Analysis::sum(int unit) {
  const auto& s = units_[static_cast<size_t>(unit)].summary;
  if (s) return *s;
  missing_.insert(static_cast<size_t>(unit));
  return empty_;
}

// A top-level name of `unit` looked up from elsewhere: when the unit has no summary yet, or
// its summary left the name out, the name is asked for (and the run is repeated with it).
void Analysis::note_lookup(int unit, const std::string& name) {
  const auto& s = units_[static_cast<size_t>(unit)].summary;
  if (!s || std::binary_search(s->elided.begin(), s->elided.end(), name))
    wanted_[static_cast<size_t>(unit)].insert(name);
}

// Whether unit `p` (without a summary) may import unit `x`: a module name it imports
// resolves to x (exactly, as a suffix, or as the parent of a name), so x's last name
// component is written in p, or is a component of p's own name (a relative import reaches
// p's packages). A superset: the summary of a candidate tells.
bool Analysis::may_import(int p, int x) const {
  std::string_view last = last_name_component(keys_[static_cast<size_t>(x)]);
  if (last.empty()) return false;
  const auto& w = units_[static_cast<size_t>(p)].words;
  if (std::binary_search(w.begin(), w.end(), last)) return true;
  // p's own name components, without allocating (called for every unsummarised unit).
  std::string_view own = keys_[static_cast<size_t>(p)];
  for (size_t b = 0; b <= own.size();) {
    size_t e = std::min(own.find('.', b), own.size());
    if (own.substr(b, e - b) == last) return true;
    b = e + 1;
  }
  return false;
}

// A project module by dotted name: exact, else the one module whose name ends with it.
int Analysis::find_module(const std::string& name) {
  if (name.empty()) return -1;
  if (auto it = module_cache_.find(name); it != module_cache_.end()) return it->second;
  int found = -1;
  if (auto it = by_key_.find(name); it != by_key_.end()) {
    found = it->second;
  } else {
    std::string suffix = "." + name;
    int n = 0;
    for (size_t u = 0; u < keys_.size(); ++u)
      if (keys_[u].ends_with(suffix)) {
        found = static_cast<int>(u);
        ++n;
      }
    if (n != 1) found = -1;  // ambiguous: unknown
  }
  module_cache_.emplace(name, found);
  return found;
}

// An absolute import seen in a module outside any package (a script: its directory holds no
// __init__.py) names first a module beside it, as Python puts the script's directory first on
// sys.path: `from model import X` in scripts/train.py is scripts/model.py.
std::string Analysis::script_relative(int unit, const std::string& path) const {
  const std::string& key = keys_[static_cast<size_t>(unit)];
  size_t dot = key.rfind('.');
  if (dot == std::string::npos) return path;  // at the root: the same either way
  std::string dir = key.substr(0, dot);
  if (by_key_.count(dir)) return path;  // a package: absolute imports start at the root
  std::string first = path.substr(0, path.find('.'));
  if (!by_key_.count(dir + "." + first)) return path;
  return dir + "." + path;
}

// The absolute dotted name of a relative import path seen in `unit`.
std::string Analysis::absolute(int unit, const std::string& rel) const {
  size_t level = 0;
  while (level < rel.size() && rel[level] == '.') ++level;
  std::string pkg = keys_[static_cast<size_t>(unit)];
  bool is_init = units_[static_cast<size_t>(unit)].file->path.ends_with("__init__.py");
  if (!is_init) pkg = pkg.substr(0, pkg.rfind('.') == std::string::npos ? 0 : pkg.rfind('.'));
  for (size_t i = 1; i < level; ++i) pkg = pkg.substr(0, pkg.rfind('.') == std::string::npos ? 0 : pkg.rfind('.'));
  std::string rest = rel.substr(level);
  if (pkg.empty()) return rest;
  return rest.empty() ? pkg : pkg + "." + rest;
}

bool Analysis::is_extension(const std::string& name) const {
  for (const auto& e : in_.extension_modules)
    if (name == e) return true;
  return false;
}

std::vector<std::string> Analysis::split(const std::string& s) {
  std::vector<std::string> out;
  size_t b = 0;
  while (b <= s.size()) {
    size_t e = s.find('.', b);
    if (e == std::string::npos) e = s.size();
    out.push_back(s.substr(b, e - b));
    b = e + 1;
  }
  return out;
}

Target Analysis::absolute_path(const std::string& path, int depth) {
  std::vector<std::string> comps = split(path);
  for (size_t i = comps.size(); i >= 1; --i) {
    std::string prefix = comps[0];
    for (size_t k = 1; k < i; ++k) prefix += "." + comps[k];
    if (is_extension(prefix)) {
      Target t{TK::Extension};
      t.path = path;
      return t;
    }
    int m = find_module(prefix);
    if (m >= 0) {
      Target t{TK::Module, m};
      for (size_t k = i; k < comps.size() && t.kind != TK::None; ++k) t = attr(t, comps[k], depth + 1);
      return t;
    }
  }
  Target t{TK::External};
  t.path = path;
  return t;
}

Target Analysis::resolve(const gb::Val& v, int unit, int self_cls, int depth) {
  if (depth > kMaxResolveDepth || --budget_ < 0) return {};
  switch (v.kind) {
    case VK::Path: {
      if (v.text.starts_with(":")) {
        std::string name = v.text.substr(1);
        std::string rest;
        if (auto d = name.find('.'); d != std::string::npos) {
          rest = name.substr(d + 1);
          name.resize(d);
        }
        Target t = global(unit, name, depth + 1);
        if (!rest.empty())
          for (const auto& c : split(rest)) t = attr(t, c, depth + 1);
        return t;
      }
      if (v.text.starts_with(".")) return absolute_path(absolute(unit, v.text), depth + 1);
      if (v.text.starts_with("builtins.")) return {};
      return absolute_path(script_relative(unit, v.text), depth + 1);
    }
    case VK::Func: {
      const auto& idx = fn_by_qual_[static_cast<size_t>(unit)];
      int i = idx.empty() ? -1 : find_qualname(idx, units_[static_cast<size_t>(unit)].summary->functions, v.text);
      if (i < 0) return {};
      return Target{TK::Function, unit, i};
    }
    case VK::Class: {
      const auto& idx = cls_by_qual_[static_cast<size_t>(unit)];
      int i = idx.empty() ? -1 : find_qualname(idx, units_[static_cast<size_t>(unit)].summary->classes, v.text);
      if (i < 0) return {};
      return Target{TK::Class, unit, i};
    }
    case VK::Self: {
      if (self_cls < 0) return {};
      Target t{TK::Instance, unit, self_cls};
      if (!v.text.empty())
        for (const auto& c : split(v.text)) t = attr(t, c, depth + 1);
      return t;
    }
    case VK::Super:
      if (self_cls < 0) return {};
      return Target{TK::Super, unit, self_cls};
    case VK::Instance: {
      if (v.items.empty()) return {};
      Target c = resolve(v.items[0], unit, self_cls, depth + 1);
      if (c.kind == TK::Class) return Target{TK::Instance, c.unit, c.index};
      if (c.kind == TK::External) {
        // The result of a library function (lower-case name) is not known to be a module.
        std::string_view last = std::string_view(c.path).substr(c.path.rfind('.') + 1);
        if ((last.empty() || !(last[0] >= 'A' && last[0] <= 'Z')) &&
            !c.path.starts_with("torch.utils.cpp_extension.load"))  // a JIT-built extension
          return {};
        c.kind = TK::ExternalInstance;
        return c;
      }
      // A project factory (`build_model(cfg)`): what its `return` gives, when that is a
      // module; the first return that resolves to one decides.
      if (c.kind == TK::Function) {
        const auto& f = sum(c.unit).functions[static_cast<size_t>(c.index)];
        for (const auto& r : f.returns) {
          Target t = resolve(r, c.unit, f.self_cls, depth + 1);
          if (t.kind == TK::Instance || t.kind == TK::ExternalInstance) return t;
        }
      }
      return {};
    }
    case VK::Attr: {
      if (v.items.empty()) return {};
      Target t = resolve(v.items[0], unit, self_cls, depth + 1);
      for (const auto& c : split(v.text)) t = attr(t, c, depth + 1);
      return t;
    }
    case VK::Item:
    case VK::Elem: {
      if (v.items.empty()) return {};
      Target c = resolve(v.items[0], unit, self_cls, depth + 1);
      if (c.kind == TK::Dict) {
        if (v.kind == VK::Item && !v.text.empty()) {
          for (size_t i = 0; i < c.keys.size(); ++i)
            if (c.keys[i] == v.text) return c.items[i];
          return {};
        }
        c.kind = TK::List;  // any value
        c.keys.clear();
        return c;
      }
      if (c.kind == TK::List) return c;  // any element: calls reach each
      return {};
    }
    case VK::List:
    case VK::Dict: {
      Target t{v.kind == VK::List ? TK::List : TK::Dict};
      for (size_t i = 0; i < v.items.size(); ++i) {
        t.items.push_back(resolve(v.items[i], unit, self_cls, depth + 1));
        if (v.kind == VK::Dict) t.keys.push_back(i < v.keys.size() ? v.keys[i] : std::string());
      }
      return t;
    }
    case VK::Scripted:
    case VK::Disabled: {
      Target t{v.kind == VK::Scripted ? TK::Scripted : TK::Disabled};
      if (!v.items.empty()) t.items.push_back(resolve(v.items[0], unit, self_cls, depth + 1));
      return t;
    }
    case VK::Tensor: return Target{TK::Tensor};
    default: return {};
  }
}

Target Analysis::global(int unit, const std::string& name, int depth) {
  const auto& g = sum(unit).globals;
  auto it = g.find(name);
  if (it == g.end()) {
    note_lookup(unit, name);
    // A submodule of a package (`from pkg import sub` resolves `pkg.sub` here).
    if (units_[static_cast<size_t>(unit)].file->path.ends_with("__init__.py")) {
      int m = find_module(keys_[static_cast<size_t>(unit)].empty() ? name : keys_[static_cast<size_t>(unit)] + "." + name);
      if (m >= 0) return Target{TK::Module, m};
    }
    return {};
  }
  return resolve(it->second, unit, -1, depth + 1);
}

// Method or class attribute lookup through the project's base classes (depth-first, left to right).
template <typename F>
bool Analysis::each_class(int unit, int cls, F&& f, int depth) {
  if (depth > 12 || --budget_ < 0) return false;
  if (f(unit, cls)) return true;
  for (const auto& b : sum(unit).classes[static_cast<size_t>(cls)].bases) {
    Target t = resolve(b, unit, -1, depth + 1);
    if (t.kind == TK::Class && each_class(t.unit, t.index, f, depth + 1)) return true;
  }
  return false;
}

// Whether a project class derives from torch.autograd.Function (through project classes).
bool Analysis::is_autograd_function(int unit, int cls) {
  bool found = false;
  each_class(unit, cls, [&](int u, int c) {
    for (const auto& b : sum(u).classes[static_cast<size_t>(c)].bases) {
      Target t = resolve(b, u, -1, 0);
      if (t.kind == TK::External &&
          (t.path == "torch.autograd.Function" || t.path == "torch.autograd.function.Function"))
        found = true;
    }
    return found;
  });
  return found;
}

Target Analysis::method(int unit, int cls, const std::string& name, bool skip_self) {
  Target out;
  bool first = true;
  each_class(unit, cls, [&](int u, int c) {
    if (skip_self && first) {
      first = false;
      return false;
    }
    first = false;
    const auto& k = sum(u).classes[static_cast<size_t>(c)];
    auto it = k.methods.find(name);
    if (it == k.methods.end()) return false;
    out = Target{TK::Function, u, it->second};
    return true;
  });
  return out;
}

Target Analysis::attr(const Target& t, const std::string& name, int depth) {
  if (depth > kMaxResolveDepth || --budget_ < 0) return {};
  switch (t.kind) {
    case TK::Module: {
      const auto& g = sum(t.unit).globals;
      if (g.count(name)) return global(t.unit, name, depth + 1);
      note_lookup(t.unit, name);
      std::string sub = keys_[static_cast<size_t>(t.unit)].empty() ? name : keys_[static_cast<size_t>(t.unit)] + "." + name;
      if (is_extension(sub)) {
        Target e{TK::Extension};
        e.path = sub;
        return e;
      }
      int m = find_module(sub);
      return m >= 0 ? Target{TK::Module, m} : Target{};
    }
    case TK::Class: {
      if (name == "apply" && is_autograd_function(t.unit, t.index))
        return method(t.unit, t.index, "forward");
      return method(t.unit, t.index, name);
    }
    case TK::Instance: {
      Target out;
      each_class(t.unit, t.index, [&](int u, int c) {
        const auto& k = sum(u).classes[static_cast<size_t>(c)];
        if (auto it = k.attrs.find(name); it != k.attrs.end()) {
          // `self.step = torch.compile(self.step)` / `self.f = wrap(self.f)`: the attribute
          // is the method of that name itself; look the method up rather than the attribute.
          bool self_ref = it->second.kind == VK::Self && it->second.text == name;
          if (!self_ref) {
            out = resolve(it->second, u, c, depth + 1);
            return true;
          }
        }
        if (auto it = k.methods.find(name); it != k.methods.end()) {
          out = Target{TK::Function, u, it->second};
          return true;
        }
        return false;
      });
      return out;
    }
    case TK::Super: return method(t.unit, t.index, name, true);
    case TK::External: {
      Target e = t;
      e.path += "." + name;
      return e;
    }
    case TK::ExternalInstance:
      if (t.path.starts_with("torch.utils.cpp_extension.load")) {
        Target e{TK::Extension};
        e.path = name;
        return e;
      }
      return {};
    case TK::Extension: {
      Target e = t;
      e.path += "." + name;
      return e;
    }
    case TK::Dict:
      for (size_t i = 0; i < t.keys.size(); ++i)
        if (t.keys[i] == name) return t.items[i];
      return {};
    default: return {};
  }
}

}  // namespace cudalint::model::regions
