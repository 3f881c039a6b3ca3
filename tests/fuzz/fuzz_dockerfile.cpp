// Dockerfile front-end: parser, environments, expansion, shell splitting and the build facts
// the model extracts. Any bytes; every span must stay inside the text.
#include "analyzer/core/source_file.h"
#include "analyzer/frontends/dockerfile/dockerfile.h"
#include "analyzer/model/docker_build.h"
#include "tests/fuzz/fuzz_target.h"

namespace {

void check_mapped(const cudalint::docker::MappedText& m, size_t size) {
  CUDALINT_FUZZ_CHECK(m.offsets.size() == m.text.size() + 1);
  for (uint32_t o : m.offsets) CUDALINT_FUZZ_CHECK(o <= size);
}

}  // namespace

CUDALINT_FUZZ_TARGET(dockerfile) {
  using namespace cudalint;
  std::string_view text = fuzz::as_text(data, size);
  docker::ParseResult pr = docker::parse(text);
  for (const auto& e : pr.errors) {
    CUDALINT_FUZZ_CHECK(fuzz::span_ok(e.span, size));
    CUDALINT_FUZZ_CHECK(!e.message.empty());
  }
  const docker::Dockerfile& df = pr.ast;
  docker::Environment env;
  for (size_t i = 0; i < df.instructions.size(); ++i) {
    const auto& in = df.instructions[i];
    CUDALINT_FUZZ_CHECK(!in.keyword.empty());
    CUDALINT_FUZZ_CHECK(fuzz::span_ok(in.span, size));
    CUDALINT_FUZZ_CHECK(fuzz::span_ok(in.keyword_span, size));
    check_mapped(in.args, size);
    for (const auto& f : in.flags) CUDALINT_FUZZ_CHECK(fuzz::span_ok(f.span, size));
    for (const auto& kv : in.pairs) {
      CUDALINT_FUZZ_CHECK(fuzz::span_ok(kv.key_span, size));
      CUDALINT_FUZZ_CHECK(fuzz::span_ok(kv.value_span, size));
    }
    for (const auto& h : in.heredocs) CUDALINT_FUZZ_CHECK(fuzz::span_ok(h.body_span, size));
    CUDALINT_FUZZ_CHECK(in.json_args.size() == in.json_arg_spans.size());
    for (const auto& s : in.json_arg_spans) CUDALINT_FUZZ_CHECK(fuzz::span_ok(s, size));
    CUDALINT_FUZZ_CHECK(fuzz::span_ok(in.from_image_span, size));
    if (!in.args.text.empty()) {
      Span s = in.args.span_of(0, in.args.text.size());
      CUDALINT_FUZZ_CHECK(fuzz::span_ok(s, size));
    }
    bool known = true;
    (void)docker::expand(in.args.text, env, df.escape, known);
    if (in.keyword == "RUN" && !in.json_form) {
      for (const auto& cmd : docker::split_shell(in.args)) {
        for (const auto& w : cmd.words) CUDALINT_FUZZ_CHECK(fuzz::span_ok(w.span, size));
        for (const auto& a : cmd.assignments) CUDALINT_FUZZ_CHECK(fuzz::span_ok(a.key_span, size));
      }
    }
    (void)docker::stage_of(df, i);
    docker::apply_to_environment(df, i, env);
  }
  for (const auto& st : df.stages) {
    CUDALINT_FUZZ_CHECK(st.from_instruction < df.instructions.size());
    CUDALINT_FUZZ_CHECK(st.end_instruction <= df.instructions.size());
    if (st.parent_stage) CUDALINT_FUZZ_CHECK(*st.parent_stage < df.stages.size());
  }
  // The model's fact extraction over the same AST (the engine does this for every Dockerfile).
  SourceFile sf("Dockerfile", FileKind::Dockerfile, std::string(text));
  model::DockerBuild build = model::extract_docker_build(sf, df);
  (void)build;
  if (!df.instructions.empty()) (void)docker::environment_at(df, df.instructions.size() - 1);
  return 0;
}
