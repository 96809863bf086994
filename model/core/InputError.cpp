#include "InputError.h"

namespace cs {

std::string InputError::toString() const {
    if (file.empty() && line == 0) return (field.empty() ? "" : field + ": ") + message;
    std::string s = file.empty() ? std::string("<input>") : file;
    if (line > 0) {
        s += ':' + std::to_string(line);
        if (column > 0) s += ':' + std::to_string(column);
    }
    s += ": ";
    if (!field.empty()) s += field + ": ";
    return s + message;
}

} // namespace cs
