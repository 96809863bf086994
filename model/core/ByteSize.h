#pragma once
// Sizes as nccl-tests takes them (-b 8 -e 8G): a whole number with an optional K, M, G or T
// (powers of 1,024, as nccl-tests reads them), optionally followed by "B" or "iB": "8", "1K",
// "16G", "256MiB". Nothing for anything else, a fraction, or above 1 PiB.
#include <optional>
#include <string>

namespace cs {

constexpr double kMaxByteSize = 1125899906842624.0; // 1 PiB
std::optional<double> parseByteSize(const std::string& text);
// "8", "1K", "256M", "16G": what parseByteSize reads back, in the largest whole unit.
std::string formatByteSize(double bytes);

} // namespace cs
