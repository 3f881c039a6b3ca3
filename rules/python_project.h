// Which setup.py / pyproject.toml a Dockerfile's `pip install .` builds, for cross-file rules.
#pragma once

#include <string_view>

#include "analyzer/model/project_model.h"

namespace cudalint::rules::project {

// The setup.py nearest above a Dockerfile (its directory, then each parent inside the
// analysed tree): the build context a `pip install .` in it most likely copies. nullptr when
// there is none.
const model::SetupPyUnit* setup_py_for(const model::ProjectModel& model, std::string_view dockerfile_path);

// The pyproject.toml in the same directory as a setup.py, if analysed.
const model::PyProjectUnit* pyproject_beside(const model::ProjectModel& model, std::string_view setup_py_path);

// The directory part of a display path ("" at the top).
std::string_view dir_of(std::string_view path);

}  // namespace cudalint::rules::project
