#include "analyzer/model/ci_build.h"

#include <algorithm>
#include <cctype>

namespace cudalint::model {

namespace {

using docker::Instruction;
using docker::KeyValue;
using docker::MappedText;

// An unset variable: what an expression whose value is not known becomes, so that the
// Dockerfile model treats what depends on it as unknown.
constexpr std::string_view kUnknownVar = "${__CUDALINT_CI_UNKNOWN__}";
constexpr size_t kMaxLabel = 80;

struct JobContext {
  const ci::Job* job = nullptr;
  const ci::MatrixCombo* combo = nullptr;  // null: no matrix, or an unknown one
};

void append(MappedText& m, std::string_view s, uint32_t at) {
  if (m.offsets.empty()) m.offsets.push_back(at);
  m.offsets.pop_back();
  for (char c : s) {
    m.text.push_back(c);
    m.offsets.push_back(at);
  }
  m.offsets.push_back(at);
}

void append_mapped(MappedText& m, const MappedText& src, size_t b, size_t e) {
  if (m.offsets.empty()) m.offsets.push_back(src.offsets.empty() ? 0 : src.offsets[b]);
  m.offsets.pop_back();
  for (size_t i = b; i < e; ++i) {
    m.text.push_back(src.text[i]);
    m.offsets.push_back(src.offsets[i]);
  }
  m.offsets.push_back(e < src.offsets.size() ? src.offsets[e] : (src.offsets.empty() ? 0 : src.offsets.back()));
}

std::string trim(std::string_view s) {
  size_t b = s.find_first_not_of(" \t"), e = s.find_last_not_of(" \t");
  return b == std::string_view::npos ? std::string() : std::string(s.substr(b, e - b + 1));
}

// `${{ matrix.cuda }}` -> the combination's value; `${{ env.X }}` -> `${X}`; any other
// expression -> an unset variable. `substituted` tells whether anything was replaced.
MappedText substitute(const MappedText& in, const JobContext& ctx, bool& substituted) {
  MappedText out;
  substituted = false;
  size_t i = 0;
  const std::string& t = in.text;
  while (i < t.size()) {
    size_t open = t.find("${{", i);
    if (open == std::string::npos) break;
    size_t close = t.find("}}", open + 3);
    if (close == std::string::npos) break;
    append_mapped(out, in, i, open);
    std::string expr = trim(std::string_view(t).substr(open + 3, close - open - 3));
    std::string value(kUnknownVar);
    if (expr.starts_with("matrix.") && ctx.combo) {
      std::string key = expr.substr(7);
      for (const auto& e : ctx.combo->values)
        if (e.key.value() == key) value = e.value.value();
    } else if (expr.starts_with("env.") && expr.size() > 4 &&
               expr.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_", 4) ==
                   std::string::npos) {
      value = "${" + expr.substr(4) + "}";
    }
    append(out, value, in.offsets[open]);
    substituted = true;
    i = close + 2;
  }
  append_mapped(out, in, i, t.size());
  return out;
}

// A pair for a synthetic ENV: the raw value is the file's text where nothing was substituted
// (so that spans and quoting are exact), else the value itself (spans then stay the scalar's).
KeyValue pair_of(std::string_view file_text, const std::string& key, Span key_span, const ci::Scalar& v,
                 const JobContext& ctx) {
  bool substituted = false;
  MappedText value = substitute(v.text, ctx, substituted);
  KeyValue kv;
  kv.key = key;
  kv.value = value.text;
  kv.has_value = true;
  kv.key_span = key_span;
  kv.value_span = v.span;
  if (!substituted && v.span.end <= file_text.size())
    kv.raw_value = std::string(file_text.substr(v.span.begin, v.span.end - v.span.begin));
  else
    kv.raw_value = kv.value.find('$') == std::string::npos ? std::string("\x01") + kv.value : kv.value;
  return kv;
}

Instruction env_instruction(std::vector<KeyValue> pairs, Span span) {
  Instruction ins;
  ins.keyword = "ENV";
  ins.span = ins.keyword_span = span;
  ins.pairs = std::move(pairs);
  ins.args.offsets.push_back(span.begin);
  return ins;
}

Instruction text_instruction(std::string keyword, MappedText args, Span span) {
  Instruction ins;
  ins.keyword = std::move(keyword);
  ins.span = ins.keyword_span = span;
  ins.args = std::move(args);
  return ins;
}

MappedText literal(std::string_view s, uint32_t at) {
  MappedText m;
  append(m, s, at);
  return m;
}

std::string single_quoted(std::string_view s) {
  std::string out = "'";
  for (char c : s) {
    if (c == '\'') out += "'\\''";
    else out.push_back(c);
  }
  return out + "'";
}

// Drops whole-line comments, which the Dockerfile shell lexer does not know.
MappedText without_comment_lines(const MappedText& in) {
  MappedText out;
  size_t i = 0;
  const std::string& t = in.text;
  while (i < t.size()) {
    size_t e = t.find('\n', i);
    e = e == std::string::npos ? t.size() : e + 1;
    size_t first = t.find_first_not_of(" \t", i);
    if (first >= e || t[first] != '#') append_mapped(out, in, i, e);
    i = e;
  }
  if (out.offsets.empty()) out.offsets.push_back(in.offsets.empty() ? 0 : in.offsets.back());
  return out;
}

// `echo "NAME=VALUE" >> $GITHUB_ENV`: the variable reaches every later step of the job.
std::vector<KeyValue> github_env_writes(const MappedText& script) {
  std::vector<KeyValue> out;
  const std::string& t = script.text;
  for (size_t i = 0; i < t.size();) {
    size_t e = t.find('\n', i);
    if (e == std::string::npos) e = t.size();
    std::string_view line(t.data() + i, e - i);
    size_t redirect = line.find(">>");
    if (redirect != std::string_view::npos && line.find("GITHUB_ENV", redirect) != std::string_view::npos) {
      size_t echo = line.find("echo ");
      if (echo != std::string_view::npos && echo < redirect) {
        size_t b = echo + 5;
        while (b < redirect && line[b] == ' ') ++b;
        size_t end = redirect;
        while (end > b && line[end - 1] == ' ') --end;
        if (end > b + 1 && (line[b] == '"' || line[b] == '\'') && line[end - 1] == line[b]) {
          ++b;
          --end;
        }
        std::string_view assignment = line.substr(b, end - b);
        size_t eq = assignment.find('=');
        if (eq != std::string_view::npos && eq > 0) {
          KeyValue kv;
          kv.key = std::string(assignment.substr(0, eq));
          kv.value = std::string(assignment.substr(eq + 1));
          kv.raw_value = kv.value;
          kv.has_value = true;
          kv.key_span = script.span_of(i + b, i + b + eq);
          kv.value_span = script.span_of(i + b + eq + 1, i + end);
          out.push_back(std::move(kv));
        }
      }
    }
    i = e + 1;
  }
  return out;
}

// GitLab expands `$X` / `${X}` in a job's image from its variables (matrix values included).
std::string expand_vars(const std::string& t, const std::vector<const ci::Entry*>& vars) {
  if (t.find('$') == std::string::npos) return t;
  std::string text;
  for (size_t i = 0; i < t.size();) {
    if (t[i] != '$') {
      text.push_back(t[i++]);
      continue;
    }
    size_t b = i + 1, e = b;
    bool braced = b < t.size() && t[b] == '{';
    if (braced) e = t.find('}', b);
    else
      while (e < t.size() && (std::isalnum(static_cast<unsigned char>(t[e])) || t[e] == '_')) ++e;
    if (e == std::string::npos || e == b) {
      text.push_back(t[i++]);
      continue;
    }
    std::string name = t.substr(braced ? b + 1 : b, braced ? e - b - 1 : e - b);
    std::string value = "${" + name + "}";  // unknown: stays a reference
    for (const ci::Entry* v : vars)
      if (v->key.value() == name) value = v->value.value();
    text += value;
    i = braced ? e + 1 : e;
  }
  return text;
}

bool is_bash(const std::optional<ci::Scalar>& shell) {
  if (!shell) return true;
  const std::string& s = shell->value();
  return s.starts_with("bash") || s.starts_with("sh") || s.find("{0}") != std::string::npos;
}

// A toolkit-installing action's version input (`Jimver/cuda-toolkit`, `N-Storm/cuda-toolkit`).
const ci::Scalar* toolkit_input(const ci::Step& s) {
  if (!s.uses || s.uses->value().find("cuda-toolkit") == std::string::npos) return nullptr;
  for (const auto& w : s.with)
    if (w.key.value() == "cuda") return &w.value;
  return nullptr;
}

std::string stage_label(const ci::Job& job, const ci::MatrixCombo* combo) {
  std::string label = job.id.value();
  if (!combo || combo->values.empty()) return label;
  label += " (";
  for (size_t i = 0; i < combo->values.size(); ++i)
    label += (i ? ", " : "") + combo->values[i].key.value() + "=" + combo->values[i].value.value();
  label += ")";
  if (label.size() > kMaxLabel) label = label.substr(0, kMaxLabel - 4) + "...)";
  return label;
}

void add_job(std::string_view file_text, const ci::Workflow& wf, const ci::Job& job, const ci::MatrixCombo* combo,
             docker::Dockerfile& df) {
  JobContext ctx{&job, combo};
  docker::Stage st;
  st.index = df.stages.size();
  st.name = stage_label(job, combo);
  st.from_instruction = df.instructions.size();

  Instruction from;
  from.keyword = "FROM";
  from.span = from.keyword_span = job.id.span;
  std::vector<const ci::Entry*> job_vars;  // GitLab: what `$X` in the image may name
  for (const auto* list : {&wf.env, &job.env})
    for (const auto& e : *list) job_vars.push_back(&e);
  if (combo && job.matrix_as_env)
    for (const auto& e : combo->values) job_vars.push_back(&e);
  if (job.container_image) {
    bool substituted = false;
    from.from_image = substitute(job.container_image->text, ctx, substituted).text;
    if (job.matrix_as_env) from.from_image = expand_vars(from.from_image, job_vars);
    from.from_image_span = job.container_image->span;
    st.base_image_known = from.from_image.find('$') == std::string::npos;
  } else {
    from.from_image = "github-hosted-runner";  // no CUDA toolkit unless a step installs one
    from.from_image_span = job.id.span;
  }
  from.from_alias = st.name;
  st.base_image = from.from_image;
  df.instructions.push_back(std::move(from));
  df.instructions.push_back(text_instruction("WORKDIR", literal(kCiWorkspace, job.id.span.begin), job.id.span));

  std::vector<KeyValue> env;
  for (const auto* list : {&wf.env, &job.env})
    for (const auto& e : *list) env.push_back(pair_of(file_text, e.key.value(), e.key.span, e.value, ctx));
  if (combo && job.matrix_as_env)
    for (const auto& e : combo->values) env.push_back(pair_of(file_text, e.key.value(), e.key.span, e.value, ctx));
  if (!env.empty()) df.instructions.push_back(env_instruction(std::move(env), job.id.span));

  const std::optional<ci::Scalar>& job_wd = job.working_directory ? job.working_directory : wf.working_directory;
  const std::optional<ci::Scalar>& job_shell = job.shell;
  for (const auto& step : job.steps) {
    if (step.checkout) {  // GitLab: the repository is the job's directory
      df.instructions.push_back(text_instruction("COPY", literal(". .", step.span.begin), step.span));
      continue;
    }
    if (step.uses && step.uses->value().starts_with("actions/checkout")) {
      std::string dest = ".";
      for (const auto& w : step.with)
        if (w.key.value() == "path" && w.value.value().find("${{") == std::string::npos) dest = w.value.value();
      df.instructions.push_back(text_instruction("COPY", literal(". " + dest, step.uses->span.begin), step.span));
      continue;
    }
    if (const ci::Scalar* cuda = toolkit_input(step)) {
      // The action puts the toolkit under /usr/local/cuda-X.Y and exports CUDA_PATH.
      std::string v = cuda->value();
      size_t second_dot = v.find('.', v.find('.') + 1);
      if (second_dot != std::string::npos) v = v.substr(0, second_dot);
      KeyValue kv;
      kv.key = "CUDA_HOME";
      kv.value = kv.raw_value = "/usr/local/cuda-" + v;
      kv.has_value = true;
      kv.key_span = kv.value_span = cuda->span;
      df.instructions.push_back(env_instruction({std::move(kv)}, step.span));
      continue;
    }
    if (!step.run || !is_bash(step.shell ? step.shell : job_shell)) continue;
    // The step's own working directory and env, then its script, in one RUN: Docker ends
    // both with the RUN, as Actions ends them with the step.
    MappedText script;
    const std::optional<ci::Scalar>& wd = step.working_directory ? step.working_directory : job_wd;
    if (wd) {
      bool substituted = false;
      MappedText dir = substitute(wd->text, ctx, substituted);
      append(script, "cd " + single_quoted(dir.text) + "\n", wd->span.begin);
    }
    for (const auto& e : step.env) {
      bool substituted = false;
      MappedText v = substitute(e.value.text, ctx, substituted);
      append(script, "export " + e.key.value() + "=", e.key.span.begin);
      // Quoted so the shell sees one word; unknown expressions stay `${...}` (double quotes).
      bool dollar = v.text.find('$') != std::string::npos;
      append(script, dollar ? "\"" : "'", e.value.span.begin);
      append_mapped(script, v, 0, v.text.size());
      append(script, dollar ? "\"\n" : "'\n", e.value.span.end);
    }
    bool substituted = false;
    MappedText body = without_comment_lines(substitute(step.run->text, ctx, substituted));
    append_mapped(script, body, 0, body.text.size());
    df.instructions.push_back(text_instruction("RUN", std::move(script), step.run->span));
    std::vector<KeyValue> persisted = github_env_writes(body);
    if (!persisted.empty()) df.instructions.push_back(env_instruction(std::move(persisted), step.run->span));
  }
  st.end_instruction = df.instructions.size();
  df.stages.push_back(std::move(st));
}

}  // namespace

docker::Dockerfile ci_as_dockerfile(std::string_view file_text, const ci::Workflow& wf) {
  docker::Dockerfile df;
  for (const auto& job : wf.jobs) {
    if (job.combos.empty()) {
      add_job(file_text, wf, job, nullptr, df);
      continue;
    }
    for (const auto& c : job.combos) add_job(file_text, wf, job, &c, df);
  }
  return df;
}

CiWorkflowUnit extract_ci_build(const SourceFile& file, const ci::Workflow& wf) {
  CiWorkflowUnit u;
  u.file = &file;
  u.ast = ci_as_dockerfile(file.text, wf);
  u.build = extract_docker_build(file, u.ast);
  return u;
}

}  // namespace cudalint::model
