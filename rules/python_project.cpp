#include "rules/python_project.h"

namespace cudalint::rules::project {

std::string_view dir_of(std::string_view path) {
  auto slash = path.find_last_of('/');
  return slash == std::string_view::npos ? std::string_view{} : path.substr(0, slash);
}

const model::SetupPyUnit* setup_py_for(const model::ProjectModel& model, std::string_view dockerfile_path) {
  for (std::string_view dir = dir_of(dockerfile_path);; dir = dir_of(dir)) {
    for (const auto& u : model.setup_pys)
      if (dir_of(u.file->path) == dir) return &u;
    if (dir.empty()) return nullptr;
  }
}

const model::PyProjectUnit* pyproject_beside(const model::ProjectModel& model, std::string_view setup_py_path) {
  for (const auto& u : model.pyprojects)
    if (dir_of(u.file->path) == dir_of(setup_py_path)) return &u;
  return nullptr;
}

}  // namespace cudalint::rules::project
