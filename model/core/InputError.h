#pragma once
// What is wrong with an input, and where: file, line and column (1-based, 0 = unknown),
// the field as a path ("generator.clusters[0].pods"), and what was expected.
#include <stdexcept>
#include <string>

namespace cs {

struct InputError {
    std::string file;
    int line = 0;
    int column = 0;
    std::string field;
    std::string message;

    std::string toString() const;
};

class InputException : public std::runtime_error {
public:
    explicit InputException(InputError e)
        : std::runtime_error(e.toString()), error_(std::move(e)) {}
    const InputError& error() const { return error_; }

private:
    InputError error_;
};

} // namespace cs
