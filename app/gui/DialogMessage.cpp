#include "DialogMessage.h"

#include "InputError.h"
#include "RunOptions.h"

namespace cs::app {

QString dialogMessage(const std::exception& e) {
    const auto* input = dynamic_cast<const InputException*>(&e);
    if (!input) return QString::fromStdString(e.what());
    const InputError& err = input->error();
    const RunOption* o = err.file.empty() ? findRunOption(err.field) : nullptr;
    if (!o) return QString::fromStdString(e.what());
    return QString::fromStdString(o->label + ": " + err.message);
}

} // namespace cs::app
