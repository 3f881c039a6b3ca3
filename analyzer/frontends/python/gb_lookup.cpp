// Graph-break summaries: looking up this file's definitions. What a class of the file is
// (traits Dynamo cannot trace, pytree registration), functions by qualified name and their
// decorators, and the module-level state a function mutates.
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "analyzer/frontends/python/gb_summarizer.h"
#include "analyzer/frontends/python/top_level.h"

namespace cudalint::python::gb::detail {

bool Summarizer::has_trait(const Val& v, ClassTrait trait) const {
  const Val* c = &v;
  if (c->is(K::Instance) && !c->items.empty()) c = &c->items[0];
  if (!c->is(K::Class)) return false;
  const int found = class_def_index(c->text);
  if (found < 0) return false;
  const size_t ci = static_cast<size_t>(found);
  TSNode def = class_nodes_[ci];
  TSNode init{};
  bool hash = false;
  TSNode body = field(def, "body");
  for (TSNode st : named_children(body)) {
    TSNode d = type_of(st) == "decorated_definition" ? field(st, "definition") : st;
    if (type_of(d) != "function_definition") continue;
    std::string_view name = txt(field(d, "name"));
    if (name == "__hash__") hash = true;
    if (name == "__init__") init = d;
  }
  switch (trait) {
    case ClassTrait::HashOverride: return hash;
    case ClassTrait::PartialTypedDict: {
      bool typed = false, partial = false;
      TSNode sup = field(def, "superclasses");
      for (TSNode b : named_children(sup)) {
        if (type_of(b) == "keyword_argument")
          partial |= txt(field(b, "name")) == "total" && literal_bool(field(b, "value")) == false;
        else
          typed |= dotted(b) == "TypedDict" || dotted(b).ends_with(".TypedDict");
      }
      return typed && partial;
    }
    case ClassTrait::PlainObject: {
      TSNode up = ts_node_parent(def);
      if (!out_.classes[ci].bases.empty() || !ts_node_is_null(field(def, "superclasses")) ||
          (!ts_node_is_null(up) && type_of(up) == "decorated_definition"))
        return false;
      return !pytree_registered(out_.classes[ci].name) && !pytree_registered(out_.classes[ci].qualname);
    }
    case ClassTrait::UninitializedModule: {
      bool module = false;
      for (const Val& b : out_.classes[ci].bases)
        module |= b.is(K::Path) && (b.text == "torch.nn.Module" || b.text == "torch.nn.modules.module.Module");
      if (!module || ts_node_is_null(init)) return false;
      std::string_view init_text = txt(field(init, "body"));
      return init_text.find("super(") == std::string_view::npos &&
             init_text.find("__init__(") == std::string_view::npos;
    }
  }
  return false;
}

std::string Summarizer::global_mutation(size_t fi) {
  // Depth-first over the body, nested definitions left out: a mutating method called on a
  // module-level name that no local or parameter shadows.
  std::set<std::string, std::less<>> local;
  for (const auto& p : out_.functions[fi].params) local.emplace(p);
  std::vector<std::pair<TSNode, int>> todo = {{field(defs_[fi].node, "body"), 0}};
  std::vector<TSNode> calls;
  while (!todo.empty()) {
    auto [n, depth] = todo.back();
    todo.pop_back();
    if (ts_node_is_null(n) || depth > kMaxDepth) continue;
    std::string_view t = type_of(n);
    if (t == "function_definition" || t == "class_definition" || t == "lambda") continue;
    if (t == "assignment" && type_of(field(n, "left")) == "identifier") local.emplace(txt(field(n, "left")));
    if (t == "call") calls.push_back(n);
    for (TSNode c : named_children(n)) todo.emplace_back(c, depth + 1);
  }
  for (TSNode c : calls) {
    TSNode fn = field(c, "function");
    if (type_of(fn) != "attribute") continue;
    TSNode obj = field(fn, "object");
    std::string_view m = txt(field(fn, "attribute"));
    if (type_of(obj) != "identifier" || local.count(txt(obj)) ||
        !contains({"append", "extend", "insert", "add", "update", "pop", "popitem", "clear", "remove", "discard",
                   "setdefault", "appendleft"},
                  m))
      continue;
    auto g = out_.globals.find(std::string(txt(obj)));
    if (g != out_.globals.end() && !g->second.is(K::Path) && !g->second.is(K::Func) && !g->second.is(K::Class))
      return std::string(txt(fn));
  }
  return {};
}

bool Summarizer::pytree_registered(std::string_view cls) const {
  for (TSNode st : named_children(module_)) {
    if (type_of(st) != "expression_statement") continue;
    TSNode call = named_children(st).empty() ? TSNode{} : named_children(st)[0];
    if (type_of(call) != "call" || dotted(field(call, "function")).find("register") == std::string::npos) continue;
    ArgsView a = args_of(call);
    if (!a.pos.empty() && (dotted(a.pos[0]) == cls || dotted(a.pos[0]).ends_with("." + std::string(cls)))) return true;
  }
  return false;
}

int Summarizer::def_index(std::string_view qualname) const {
  auto it = function_index_.find(qualname);
  return it == function_index_.end() || static_cast<size_t>(it->second) >= defs_.size() ? -1 : it->second;
}

int Summarizer::class_def_index(std::string_view qualname) const {
  auto it = class_index_.find(qualname);
  return it == class_index_.end() || static_cast<size_t>(it->second) >= class_nodes_.size() ? -1 : it->second;
}

TSNode Summarizer::decorator_named(size_t fi, std::string_view path, const FnContext& ctx) {
  TSNode dec = defs_[fi].decorated;
  if (ts_node_is_null(dec)) return {};
  FnContext mctx;
  mctx.scope = &module_scope_;
  for (TSNode d : named_children(dec)) {
    auto kids = named_children(d);
    if (type_of(d) != "decorator" || kids.empty()) continue;
    TSNode e = type_of(kids[0]) == "call" ? field(kids[0], "function") : kids[0];
    Val v = eval(e, defs_[fi].nested ? ctx : mctx, 0);
    if (v.is(K::Path) && v.text == path) return d;
  }
  return {};
}

}  // namespace cudalint::python::gb::detail
