#pragma once
// The explicit form of the native file: every entity and link listed by id, one per line.
#include "JsonObjectReader.h"
#include "Topology.h"

#include <QByteArray>

namespace cs {

// Upper bounds on what an explicit file may list (memory stays bounded for hostile files).
struct ExplicitLimits {
    qsizetype clusters = 64, pods = 100'000, rows = 1'000'000, racks = 1'000'000;
    qsizetype hosts = 1'000'000, nics = 4'000'000, switches = 2'000'000;
    qsizetype storage = 1'000'000, links = 16'000'000;
    long long gpus = 2'000'000;
};

// The "explicit" object's text, without the enclosing document.
QByteArray explicitTopologyJson(const Topology& t, const char* indent);
// Fills the entity arrays of t from the "explicit" object; throws JsonFieldError.
void explicitTopologyFromJson(const QJsonValue& v, const JsonPath& path, Topology& t,
                              const ExplicitLimits& limits = {});

} // namespace cs
