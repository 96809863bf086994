# The project's references live in the project: no source, test, CMake, script or Markdown
# file points at notes outside the repository (the sibling folder of shared notes the project
# was started from), and every docs/reference/*.md file that a file names exists.
# Run: cmake -DSOURCE_DIR=<repository root> -P CheckReferences.cmake
cmake_minimum_required(VERSION 3.25) # the project's policies in script mode (while(TRUE), lists)
if(NOT SOURCE_DIR)
  message(FATAL_ERROR "set SOURCE_DIR to the repository root")
endif()
set(scanned app model views tests packaging resources docs)

# The files: tracked or about to be (git), else every file of those folders (a source tarball).
set(files "")
find_program(GIT git)
if(GIT AND EXISTS ${SOURCE_DIR}/.git)
  execute_process(COMMAND ${GIT} ls-files --cached --others --exclude-standard -- ${scanned} README.md
                  WORKING_DIRECTORY ${SOURCE_DIR} OUTPUT_VARIABLE listed RESULT_VARIABLE failed
                  ERROR_QUIET)
  if(NOT failed)
    string(REPLACE "\n" ";" files "${listed}")
  endif()
endif()
if(NOT files)
  file(GLOB_RECURSE files RELATIVE ${SOURCE_DIR} LIST_DIRECTORIES false ${SOURCE_DIR}/README.md)
  foreach(dir IN LISTS scanned)
    file(GLOB_RECURSE more RELATIVE ${SOURCE_DIR} LIST_DIRECTORIES false ${SOURCE_DIR}/${dir}/*)
    list(APPEND files ${more})
  endforeach()
endif()
list(FILTER files INCLUDE REGEX "(\\.(cpp|h|cmake|sh|py|md)|(^|/)CMakeLists\\.txt)$")

# Written in two parts so that this file does not match itself.
set(outside shared)
set(forbidden "${outside}/reference" "${outside}/seeds" "${outside}/fixtures" "../${outside}")

# The line number of character `offset` in `text`.
function(line_of text offset out)
  string(SUBSTRING "${text}" 0 ${offset} before)
  string(REGEX MATCHALL "\n" breaks "${before}")
  list(LENGTH breaks n)
  math(EXPR n "${n} + 1")
  set(${out} ${n} PARENT_SCOPE)
endfunction()

# Appends "file:line: what" for every occurrence of `needle` in `text` to `problems`.
function(report_each text needle file what)
  set(rest "${text}")
  set(base 0)
  string(LENGTH "${needle}" width)
  while(TRUE)
    string(FIND "${rest}" "${needle}" at)
    if(at EQUAL -1)
      break()
    endif()
    math(EXPR offset "${base} + ${at}")
    line_of("${text}" ${offset} line)
    list(APPEND problems "${file}:${line}: ${what}")
    math(EXPR skip "${at} + ${width}")
    string(SUBSTRING "${rest}" ${skip} -1 rest)
    math(EXPR base "${base} + ${skip}")
  endwhile()
  set(problems "${problems}" PARENT_SCOPE)
endfunction()

set(problems "")
list(LENGTH files count)
foreach(file IN LISTS files)
  if(NOT EXISTS ${SOURCE_DIR}/${file})
    continue() # deleted but not yet committed
  endif()
  file(READ ${SOURCE_DIR}/${file} text)
  foreach(needle IN LISTS forbidden)
    report_each("${text}" "${needle}" "${file}" "points outside the repository (${needle})")
  endforeach()
  string(REGEX MATCHALL "docs/reference/[A-Za-z0-9_.-]+\\.md" named "${text}")
  list(REMOVE_DUPLICATES named)
  foreach(name IN LISTS named)
    if(NOT EXISTS ${SOURCE_DIR}/${name})
      report_each("${text}" "${name}" "${file}" "${name} does not exist")
    endif()
  endforeach()
endforeach()

if(problems)
  list(LENGTH problems n)
  string(REPLACE ";" "\n  " listing "${problems}")
  message(FATAL_ERROR "${n} reference(s) to fix:\n  ${listing}")
endif()
message(STATUS "${count} files scanned: every reference is inside the repository")
