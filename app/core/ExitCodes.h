#pragma once
// What `clusterscope` exits with: 0 success, 1 failure writing output, 2 bad input (a message
// on stderr names the file, line, column and field).
namespace cs::app {

constexpr int kExitOk = 0;
constexpr int kExitIoError = 1;
constexpr int kExitBadInput = 2;

} // namespace cs::app
