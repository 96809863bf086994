#pragma once
// Generator parameters to and from the "generator" object of the native file format.
// Every field is optional on reading; a missing one keeps the default of SiteParams.h.
#include "JsonObjectReader.h"
#include "SiteParams.h"

#include <QJsonObject>

namespace cs {

QJsonObject siteParamsToJson(const SiteParams& p);
// Throws JsonFieldError on wrong types or unknown fields; ranges are checked by
// checkSiteParams afterwards.
SiteParams siteParamsFromJson(const QJsonValue& v, const JsonPath& path);

} // namespace cs
