#include "analyzer/frontends/pyproject/pyproject.h"

#include "analyzer/core/toml_positions.h"
#include "analyzer/frontends/requirements/requirements.h"

namespace cudalint::pyproject {

namespace {

std::vector<Requirement> read_array(const toml::array* arr, const PositionMap& pos) {
  std::vector<Requirement> out;
  if (!arr) return out;
  for (const auto& el : *arr) {
    const auto* s = el.as_string();
    if (!s) continue;
    // One PEP 508 line: the requirements-file parser reads markers, extras and `name @ url`.
    requirements::File f = requirements::parse(s->get());
    if (f.requirements.empty()) continue;
    const auto& r = f.requirements.front();
    out.push_back({r.name, r.text, pos.span(el.source()), r.exact});
  }
  return out;
}

File parse_impl(std::string_view text) {
  File f;
  if (overlong_key_path(text)) return f;  // the config loader reports it
  toml::table root;
  try {
    root = toml::parse(text);
  } catch (const toml::parse_error&) {
    return f;
  }
  PositionMap pos(text);
  if (const auto* bs = root["build-system"].as_table()) {
    f.has_build_system = true;
    f.build_system_span = pos.span(bs->source());
    if (const auto* req = bs->get("requires")) {
      f.requires_span = pos.span(req->source());
      f.build_requires = read_array(req->as_array(), pos);
    }
    if (const auto* be = bs->get("build-backend"); be && be->as_string()) f.build_backend = be->as_string()->get();
  }
  if (const auto* proj = root["project"].as_table())
    if (const auto* deps = proj->get("dependencies")) f.dependencies = read_array(deps->as_array(), pos);
  return f;
}

}  // namespace

File parse(std::string_view text) {
  try {
    return parse_impl(text);
  } catch (const std::exception&) {  // allocation failure: nothing parsed, never a crash
    return {};
  }
}

}  // namespace cudalint::pyproject
