#include "analyzer/frontends/ci/gitlab_ci.h"

#include <algorithm>
#include <cctype>
#include <set>

#include "analyzer/frontends/ci/yaml_tree.h"

namespace cudalint::ci {

namespace {

// Top-level keys that are not jobs.
bool reserved(std::string_view k) {
  static const std::set<std::string_view> kReserved{"image",   "services", "stages", "types",    "before_script",
                                                    "after_script", "variables", "cache", "include", "workflow",
                                                    "default", "spec"};
  return kReserved.count(k) > 0;
}

// A job's definition with its `extends:` templates applied (template values first, the job's
// own over them; variables merged by name), at most a few levels deep.
struct JobDef {
  const YNode* image = nullptr;
  std::vector<Entry> variables;
  const YNode* before_script = nullptr;
  const YNode* script = nullptr;
  const YNode* parallel = nullptr;
};

void set_variables(std::vector<Entry>& into, const YNode* vars) {
  if (!vars || vars->kind != YNode::Kind::Map) return;
  for (const auto& [k, v] : vars->map) {
    std::optional<Scalar> value = v.kind == YNode::Kind::Scalar ? std::optional<Scalar>(v.scalar) : scalar(get(v, "value"));
    if (!value) continue;
    auto it = std::find_if(into.begin(), into.end(), [&](const Entry& e) { return e.key.value() == k.value(); });
    if (it != into.end()) it->value = *value;
    else into.push_back({k, *value});
  }
}

void apply(const YNode& root, const YNode& job, JobDef& def, int depth) {
  if (depth > 8 || job.kind != YNode::Kind::Map) return;
  if (const YNode* ext = get(job, "extends")) {
    std::vector<const YNode*> names;
    if (ext->kind == YNode::Kind::Scalar) names.push_back(ext);
    else if (ext->kind == YNode::Kind::Seq)
      for (const auto& n : ext->seq) names.push_back(&n);
    for (const YNode* n : names)
      if (n->kind == YNode::Kind::Scalar)
        if (const YNode* t = get(root, n->scalar.value())) apply(root, *t, def, depth + 1);
  }
  if (const YNode* v = get(job, "image")) def.image = v;
  set_variables(def.variables, get(job, "variables"));
  if (const YNode* v = get(job, "before_script")) def.before_script = v;
  if (const YNode* v = get(job, "script")) def.script = v;
  if (const YNode* v = get(job, "parallel")) def.parallel = v;
}

std::optional<Scalar> image_of(const YNode* n) {
  if (!n) return std::nullopt;
  if (n->kind == YNode::Kind::Scalar) return n->scalar;
  return scalar(get(*n, "name"));
}

// Script lines joined with newlines, each keeping its bytes in the file.
void append_script(const YNode* n, Scalar& into) {
  if (!n) return;
  std::vector<const Scalar*> lines;
  if (n->kind == YNode::Kind::Scalar) lines.push_back(&n->scalar);
  else if (n->kind == YNode::Kind::Seq)
    for (const auto& item : n->seq)
      if (item.kind == YNode::Kind::Scalar) lines.push_back(&item.scalar);
  for (const Scalar* l : lines) {
    if (into.text.offsets.empty()) {
      into.text.offsets.push_back(l->span.begin);
      into.span = l->span;
    }
    into.text.offsets.pop_back();
    into.text.text += l->text.text;
    into.text.offsets.insert(into.text.offsets.end(), l->text.offsets.begin(), l->text.offsets.end() - 1);
    into.text.text.push_back('\n');
    into.text.offsets.push_back(l->span.end);
    into.text.offsets.push_back(l->span.end);
    into.span.end = std::max(into.span.end, l->span.end);
  }
}

// `parallel: matrix: [{A: [1, 2], B: x}, ...]`: per entry the product of its values.
void expand_matrix(const YNode* parallel, Job& job) {
  const YNode* m = parallel ? get(*parallel, "matrix") : nullptr;
  if (!m) return;
  if (m->kind != YNode::Kind::Seq) {
    job.matrix_unknown = true;
    return;
  }
  for (const auto& entry : m->seq) {
    if (entry.kind != YNode::Kind::Map) continue;
    std::vector<MatrixCombo> combos{MatrixCombo{}};
    for (const auto& [k, v] : entry.map) {
      std::vector<const Scalar*> values;
      if (v.kind == YNode::Kind::Scalar) values.push_back(&v.scalar);
      else if (v.kind == YNode::Kind::Seq)
        for (const auto& item : v.seq)
          if (item.kind == YNode::Kind::Scalar) values.push_back(&item.scalar);
      if (values.empty()) {
        job.matrix_unknown = true;
        return;
      }
      std::vector<MatrixCombo> next;
      for (const auto& c : combos)
        for (const Scalar* val : values) {
          MatrixCombo n = c;
          n.values.push_back({k, *val});
          next.push_back(std::move(n));
        }
      combos = std::move(next);
      if (combos.size() + job.combos.size() > kMaxCombos) {
        job.matrix_unknown = true;
        job.combos.clear();
        return;
      }
    }
    for (auto& c : combos) job.combos.push_back(std::move(c));
  }
}

}  // namespace

ParseResult parse_gitlab_ci(std::string_view text) {
  ParseResult out;
  YamlResult y = read_yaml(text);
  out.errors = std::move(y.errors);
  if (!out.errors.empty() || y.root.kind != YNode::Kind::Map) return out;
  const YNode& root = y.root;
  const YNode* defaults = get(root, "default");
  for (const auto& [id, jn] : root.map) {
    if (reserved(id.value()) || id.value().starts_with(".") || jn.kind != YNode::Kind::Map) continue;
    JobDef def;
    // Global image/before_script/variables, then `default:`, then the job's templates and itself.
    if (const YNode* v = get(root, "image")) def.image = v;
    if (const YNode* v = get(root, "before_script")) def.before_script = v;
    set_variables(def.variables, get(root, "variables"));
    if (defaults) {
      if (const YNode* v = get(*defaults, "image")) def.image = v;
      if (const YNode* v = get(*defaults, "before_script")) def.before_script = v;
    }
    apply(root, jn, def, 0);
    if (!def.script) continue;  // a trigger or a template: nothing runs here
    Job job;
    job.id = id;
    job.env = def.variables;
    job.matrix_as_env = true;
    expand_matrix(def.parallel, job);
    job.container_image = image_of(def.image);  // `$X` in it: expanded per combination by the model
    Step checkout;
    checkout.span = id.span;
    checkout.checkout = true;
    job.steps.push_back(std::move(checkout));
    Step run;
    run.span = jn.span;
    Scalar script;
    append_script(def.before_script, script);
    append_script(def.script, script);
    if (!script.text.text.empty()) run.run = std::move(script);
    job.steps.push_back(std::move(run));
    out.workflow.jobs.push_back(std::move(job));
  }
  return out;
}

}  // namespace cudalint::ci
