// setup.py front-end (see setup_py.h): tree-sitter parse, syntax errors from ERROR/MISSING nodes,
// then one static walk (py_eval.h) whose statement hook (Extractor, setup_py_extractor.h) picks
// out extensions, environment settings, cmdclass and imports. The error scan and the
// per-statement call scan are iterative.
#include "analyzer/frontends/python/setup_py.h"

#include <memory>
#include <new>

#include "analyzer/frontends/python/setup_py_extractor.h"

namespace cudalint::python {

namespace setup_detail {


void Extractor::statement(TSNode stmt, Scope& scope, bool conditional) {
  std::string_view t = type_of(stmt);
  bindings_.record(stmt, in_);
  if (t == "if_statement") branches(stmt, scope);
  else blocks(stmt);
  if (t == "import_statement" || t == "import_from_statement") imports(stmt);
  if (t == "expression_statement")
    for (TSNode c : named_children(stmt))
      if (type_of(c) == "assignment" || type_of(c) == "augmented_assignment")
        env_assignment(stmt, c, scope, conditional);
  scan_calls(stmt, scope, conditional);
}

void Extractor::imports(TSNode stmt) {
  auto torch = [&](TSNode dotted) {
    std::string m;
    for (char c : in_.text(dotted))
      if (c != ' ' && c != '\t' && c != '\\' && c != '\n' && c != '\r') m += c;
    if (m == "torch" || m.starts_with("torch.")) out_.imports_torch = true;
  };
  if (type_of(stmt) == "import_from_statement") {
    torch(field(stmt, "module_name"));
    return;
  }
  for (TSNode c : named_children(stmt)) torch(type_of(c) == "aliased_import" ? field(c, "name") : c);
}


// Finds the calls in one statement (not in its nested blocks), in source order, with one
// cursor: a preorder walk that keeps, per ancestor, whether its children may not run, and the
// tests (`x if test else y`, `test and f()`) the current node runs under.
void Extractor::scan_calls(TSNode root, Scope& scope, bool conditional) {
  struct Level {
    bool child_cond;  // everything below may not run
    bool boolean;     // a boolean_operator: its right operand may not run
    TSNode node;      // the parent
    int named = 0;    // its named children seen so far
    size_t base = 0;  // tests_ size below this parent
  };
  std::vector<Level> levels;
  tests_.clear();
  TSTreeCursor c = ts_tree_cursor_new(root);
  for (;;) {
    TSNode n = ts_tree_cursor_current_node(&c);
    bool cond = conditional;
    std::string_view t = type_of(n);
    if (!levels.empty()) {
      Level& up = levels.back();
      const char* f = up.boolean ? ts_tree_cursor_current_field_name(&c) : nullptr;
      bool right = f && std::string_view(f) == "right";
      cond = up.child_cond || right;
      tests_.resize(up.base);
      if (ts_node_is_named(n) && t != "comment" && t != "line_continuation") {
        int idx = up.named++;
        std::string_view pt = type_of(up.node);
        if (pt == "conditional_expression" && (idx == 0 || idx == 2)) {
          auto kids = named_children(up.node);
          if (kids.size() == 3) tests_.push_back({kids[1], idx == 2});
        } else if (right) {
          tests_.push_back({field(up.node, "left"), in_.text(field(up.node, "operator")) == "or"});
        }
      }
    }
    if (t == "call") on_call(n, scope, cond);
    // Nested blocks are reported by the walk itself; strings hold no calls worth finding.
    bool descend = ts_node_is_named(n) && t != "block" && t != "string";
    if (descend && ts_tree_cursor_goto_first_child(&c)) {
      bool child_cond = cond || t == "conditional_expression" || t == "lambda" || t == "list_comprehension" ||
                        t == "set_comprehension" || t == "dictionary_comprehension" || t == "generator_expression";
      levels.push_back({child_cond, t == "boolean_operator", n, 0, tests_.size()});
      continue;
    }
    bool more = false;
    while (!levels.empty()) {
      if (ts_tree_cursor_goto_next_sibling(&c)) {
        more = true;
        break;
      }
      ts_tree_cursor_goto_parent(&c);
      levels.pop_back();
    }
    if (!more) break;
  }
  ts_tree_cursor_delete(&c);
  tests_.clear();
}

}  // namespace setup_detail

using namespace setup_detail;

ParseResult parse_setup_py(std::string_view text, const EvalContext* context) {
  ParseResult r;
  if (text.size() > UINT32_MAX) {
    r.errors.push_back({{0, 0}, "setup.py is too large to parse"});
    return r;
  }
  try {
    std::unique_ptr<TSParser, decltype(&ts_parser_delete)> parser(ts_parser_new(), &ts_parser_delete);
    if (!parser || !ts_parser_set_language(parser.get(), tree_sitter_python())) {
      r.errors.push_back({{0, 0}, "the python grammar could not be loaded"});
      return r;
    }
    std::unique_ptr<TSTree, decltype(&ts_tree_delete)> tree(
        ts_parser_parse_string(parser.get(), nullptr, text.data(), static_cast<uint32_t>(text.size())),
        &ts_tree_delete);
    if (!tree) {
      r.errors.push_back({{0, 0}, "setup.py could not be parsed"});
      return r;
    }
    TSNode root = ts_tree_root_node(tree.get());
    collect_errors(root, text, r.errors);
    Interpreter in(text, context);
    Extractor ex(in, r.setup);
    in.run(root, [&](TSNode stmt, Scope& scope, bool conditional) { ex.statement(stmt, scope, conditional); });
  } catch (const std::bad_alloc&) {
    r.errors.push_back({{0, 0}, "setup.py is too large to analyse"});
  }
  // Function bodies are walked after the module; report in source order.
  std::stable_sort(r.setup.extensions.begin(), r.setup.extensions.end(),
                   [](const Extension& a, const Extension& b) { return a.call_span.begin < b.call_span.begin; });
  std::stable_sort(r.setup.env.begin(), r.setup.env.end(),
                   [](const EnvSetting& a, const EnvSetting& b) { return a.span.begin < b.span.begin; });
  return r;
}

}  // namespace cudalint::python
