#pragma once
// An error as a dialog says it: an InputException that names a run option by its key reads
// "Tensor parallel (TP): ..."; located errors (file:line:column) and others as they are.
#include <QString>

#include <exception>

namespace cs::app {

QString dialogMessage(const std::exception& e);

} // namespace cs::app
