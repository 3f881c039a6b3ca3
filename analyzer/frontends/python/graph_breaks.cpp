// Graph-break summary of one Python module (see graph_breaks.h): the entry points. summarize()
// parses a module and runs the Summarizer over it (gb_summarizer.h, whose members are defined by
// concern in gb_*.cpp); summarize_lazy() parses only the top-level code its compiled regions may
// reach.
#include "analyzer/frontends/python/graph_breaks.h"

#include <algorithm>
#include <memory>
#include <new>
#include <unordered_map>

#include <tree_sitter/api.h>

#include "analyzer/frontends/python/gb_summarizer.h"
#include "analyzer/frontends/python/py_eval.h"
#include "analyzer/frontends/python/top_level.h"
#include "analyzer/frontends/python/ts_arena.h"

namespace cudalint::python::gb {

Val Val::wrap(Kind k, Val inner, std::string text) {
  Val v;
  v.kind = k;
  v.text = std::move(text);
  v.items.push_back(std::move(inner));
  return v;
}

bool may_start_regions(std::string_view text) {
  return text.find("compile") != std::string_view::npos || text.find("optimize") != std::string_view::npos ||
         text.find("dynamo") != std::string_view::npos;
}

void WordSet::insert(std::string_view w) {
  if (w.empty()) return;
  set_.insert(w);
  by_first_[static_cast<unsigned char>(w[0])] |= uint64_t{1} << std::min<size_t>(w.size(), 63);
}

std::vector<std::string> words_of(std::string_view text, const WordSet& keep) {
  std::vector<std::string> out;
  python::each_word(text, [&](std::string_view w) {
    if (keep.contains(w)) out.emplace_back(w);
  });
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

namespace {

// Parses `text` (only `ranges` of it, when given) and summarises what it holds. nullopt when
// `ranges` are given and their code has a syntax error: the caller parses the whole text.
std::optional<Summary> summarize_ranges(std::string_view text, const CallPatterns& calls, const std::vector<TSRange>* ranges) {
  Summary s;
  if (text.size() > UINT32_MAX) {
    s.truncated = true;
    return s;
  }
  try {
    // tree-sitter allocates from an arena that is dropped whole, instead of freeing the tree's
    // nodes one by one (ts_arena.h); bounded by the text's size, past which malloc serves.
    TsArena arena(std::min<size_t>(size_t{64} << 20, (size_t{2} << 20) + text.size() * 64));
    std::unique_ptr<TSParser, decltype(&ts_parser_delete)> parser(ts_parser_new(), &ts_parser_delete);
    if (!parser || !ts_parser_set_language(parser.get(), tree_sitter_python())) {
      s.truncated = true;
      return s;
    }
    if (ranges && !ts_parser_set_included_ranges(parser.get(), ranges->data(), static_cast<uint32_t>(ranges->size())))
      return std::nullopt;
    std::unique_ptr<TSTree, decltype(&ts_tree_delete)> tree(
        ts_parser_parse_string(parser.get(), nullptr, text.data(), static_cast<uint32_t>(text.size())),
        &ts_tree_delete);
    if (!tree) {
      s.truncated = true;
      return s;
    }
    if (ranges && ts_node_has_error(ts_tree_root_node(tree.get()))) return std::nullopt;
    {
      detail::Summarizer sm(text, calls, s);
      sm.run(ts_tree_root_node(tree.get()));
    }
    // All in the arena: freed with it, without walking the tree.
    if (!arena.overflowed()) {
      (void)tree.release();
      (void)parser.release();
    }
    // Summaries live until the run reports (every Python file of a large tree at once): drop
    // the vectors' growth slack.
    for (Function& f : s.functions) {
      f.params.shrink_to_fit();
      f.breaks.shrink_to_fit();
      f.calls.shrink_to_fit();
    }
    for (Class& c : s.classes) {
      c.attrs.shrink_to_fit();
      c.methods.shrink_to_fit();
    }
    s.globals.shrink_to_fit();
    s.functions.shrink_to_fit();
    s.classes.shrink_to_fit();
    s.compile_sites.shrink_to_fit();
    s.imports.shrink_to_fit();
  } catch (const std::bad_alloc&) {
    s = Summary{};
    s.truncated = true;
  }
  return s;
}

}  // namespace

Summary summarize(std::string_view text, const CallPatterns& calls) { return *summarize_ranges(text, calls, nullptr); }

Summary summarize_lazy(std::string_view text, const CallPatterns& calls, const std::vector<std::string>& want) {
  auto stmts = top_level_statements(text);
  if (!stmts || stmts->empty()) return summarize(text, calls);
  using SK = TopLevelStatement::Kind;
  const auto& st = *stmts;
  std::vector<char> keep(st.size(), 0);
  std::unordered_map<std::string_view, std::vector<uint32_t>> defs;  // name -> its def/class statements
  std::vector<uint32_t> work;
  const std::unordered_set<std::string_view> wanted(want.begin(), want.end());
  for (uint32_t k = 0; k < st.size(); ++k) {
    if (st[k].kind == SK::Other) {
      keep[k] = 1;
      work.push_back(k);
      continue;
    }
    defs[st[k].name].push_back(k);
    std::string_view code = text.substr(st[k].begin, st[k].end - st[k].begin);
    bool root = may_start_regions(code) || wanted.count(st[k].name) > 0;
    // Imports in a body are the module's imports (the Dynamo config's scope), and `global`
    // binds module names: such a function is kept whatever reaches it.
    if (!root)
      python::each_word(code, [&](std::string_view w) { root = root || w == "import" || w == "global"; });
    if (root) {
      keep[k] = 1;
      work.push_back(k);
    }
  }
  // Everything whose name the kept code writes is kept. A name is looked at once: all its
  // definitions are kept then (linear, even for thousands of definitions of one name).
  while (!work.empty()) {
    uint32_t k = work.back();
    work.pop_back();
    python::each_word(text.substr(st[k].begin, st[k].end - st[k].begin), [&](std::string_view w) {
      auto it = defs.find(w);
      if (it == defs.end()) return;
      for (uint32_t d : it->second)
        if (!keep[d]) {
          keep[d] = 1;
          work.push_back(d);
        }
      defs.erase(it);
    });
  }
  std::vector<std::string> elided;
  for (uint32_t k = 0; k < st.size(); ++k)
    if (!keep[k]) elided.emplace_back(st[k].name);
  if (elided.empty()) return summarize(text, calls);
  std::sort(elided.begin(), elided.end());
  elided.erase(std::unique(elided.begin(), elided.end()), elided.end());
  std::vector<TSRange> ranges;
  for (uint32_t k = 0; k < st.size(); ++k) {
    if (!keep[k]) continue;
    if (!ranges.empty() && ranges.back().end_byte == st[k].begin) {
      ranges.back().end_byte = st[k].end;
      ranges.back().end_point = {st[k].end_row, st[k].end_column};
    } else {
      ranges.push_back({{st[k].row, 0}, {st[k].end_row, st[k].end_column}, st[k].begin, st[k].end});
    }
  }
  if (ranges.empty()) {  // nothing but definitions nothing reaches: an empty module
    Summary s;
    s.elided = std::move(elided);
    return s;
  }
  std::optional<Summary> s = summarize_ranges(text, calls, &ranges);
  if (!s) return summarize(text, calls);
  s->elided = std::move(elided);
  return std::move(*s);
}

}  // namespace cudalint::python::gb
