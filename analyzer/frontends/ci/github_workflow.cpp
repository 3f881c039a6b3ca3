#include "analyzer/frontends/ci/github_workflow.h"

#include <algorithm>

#include "analyzer/frontends/ci/yaml_tree.h"

namespace cudalint::ci {

namespace {

bool matches(const MatrixCombo& c, const std::vector<Entry>& partial, const std::vector<std::string>* only_keys) {
  for (const auto& e : partial) {
    if (only_keys && std::find(only_keys->begin(), only_keys->end(), e.key.value()) == only_keys->end()) continue;
    auto it = std::find_if(c.values.begin(), c.values.end(), [&](const Entry& v) { return v.key.value() == e.key.value(); });
    if (it == c.values.end() || it->value.value() != e.value.value()) return false;
  }
  return true;
}

// GitHub's matrix expansion: the product of the list-valued keys, minus `exclude`, then each
// `include` entry extends the combinations it matches on the original keys, or is added.
void expand_matrix(const YNode& matrix, Job& job) {
  if (matrix.kind != YNode::Kind::Map) {
    job.matrix_unknown = true;  // `matrix: ${{ fromJSON(...) }}`
    return;
  }
  std::vector<std::string> keys;
  std::vector<MatrixCombo> combos{MatrixCombo{}};
  const YNode* include = nullptr;
  const YNode* exclude = nullptr;
  for (const auto& [k, v] : matrix.map) {
    if (k.value() == "include") { include = &v; continue; }
    if (k.value() == "exclude") { exclude = &v; continue; }
    if (v.kind != YNode::Kind::Seq) {
      job.matrix_unknown = true;
      return;
    }
    keys.push_back(k.value());
    std::vector<MatrixCombo> next;
    for (const auto& c : combos)
      for (const auto& item : v.seq) {
        if (item.kind != YNode::Kind::Scalar) {
          job.matrix_unknown = true;
          return;
        }
        MatrixCombo n = c;
        n.values.push_back({k, item.scalar});
        next.push_back(std::move(n));
        if (next.size() > kMaxCombos) {
          job.matrix_unknown = true;
          return;
        }
      }
    combos = std::move(next);
  }
  if (keys.empty()) combos.clear();
  if (exclude && exclude->kind == YNode::Kind::Seq)
    for (const auto& ex : exclude->seq) {
      auto partial = entries(&ex);
      if (partial.empty()) continue;
      std::erase_if(combos, [&](const MatrixCombo& c) { return matches(c, partial, nullptr); });
    }
  if (include && include->kind == YNode::Kind::Seq)
    for (const auto& in : include->seq) {
      auto partial = entries(&in);
      if (partial.empty()) continue;
      bool extended = false;
      for (auto& c : combos) {
        if (!matches(c, partial, &keys)) continue;
        extended = true;
        for (const auto& e : partial)
          if (std::find(keys.begin(), keys.end(), e.key.value()) == keys.end()) c.values.push_back(e);
      }
      if (!extended) combos.push_back(MatrixCombo{partial});
      if (combos.size() > kMaxCombos) {
        job.matrix_unknown = true;
        return;
      }
    }
  job.combos = std::move(combos);
}

Step read_step(const YNode& n) {
  Step s;
  s.span = n.span;
  s.name = scalar(get(n, "name"));
  s.uses = scalar(get(n, "uses"));
  s.with = entries(get(n, "with"));
  s.run = scalar(get(n, "run"));
  s.shell = scalar(get(n, "shell"));
  s.env = entries(get(n, "env"));
  s.working_directory = scalar(get(n, "working-directory"));
  return s;
}

}  // namespace

ParseResult parse_github_workflow(std::string_view text) {
  ParseResult out;
  YamlResult y = read_yaml(text);
  out.errors = std::move(y.errors);
  if (!out.errors.empty()) return out;
  const YNode& root = y.root;
  Workflow& wf = out.workflow;
  wf.env = entries(get(root, "env"));
  if (const YNode* d = get(root, "defaults"))
    if (const YNode* r = get(*d, "run")) wf.working_directory = scalar(get(*r, "working-directory"));
  const YNode* jobs = get(root, "jobs");
  if (!jobs || jobs->kind != YNode::Kind::Map) return out;
  for (const auto& [id, jn] : jobs->map) {
    if (jn.kind != YNode::Kind::Map) continue;
    Job job;
    job.id = id;
    if (const YNode* c = get(jn, "container")) job.container_image = c->kind == YNode::Kind::Scalar ? scalar(c) : scalar(get(*c, "image"));
    job.env = entries(get(jn, "env"));
    if (const YNode* d = get(jn, "defaults"))
      if (const YNode* r = get(*d, "run")) {
        job.working_directory = scalar(get(*r, "working-directory"));
        job.shell = scalar(get(*r, "shell"));
      }
    if (const YNode* st = get(jn, "strategy"))
      if (const YNode* m = get(*st, "matrix")) expand_matrix(*m, job);
    if (const YNode* steps = get(jn, "steps"); steps && steps->kind == YNode::Kind::Seq)
      for (const auto& sn : steps->seq)
        if (sn.kind == YNode::Kind::Map) job.steps.push_back(read_step(sn));
    wf.jobs.push_back(std::move(job));
  }
  return out;
}

}  // namespace cudalint::ci
