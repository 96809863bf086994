#pragma once
// Generator parameters to and from the "generator" object of the native file format, field by
// field through the design table (DesignFields.h). Every field is optional on reading; a
// missing one keeps the default of SiteParams.h.
#include "JsonObjectReader.h"
#include "SiteParams.h"

#include <QJsonObject>

namespace cs {

QJsonObject siteParamsToJson(const SiteParams& p);
// Throws JsonFieldError on wrong types, values out of the field's range and unknown fields;
// what depends on several fields (ports, totals) is checked by checkSiteParams afterwards.
SiteParams siteParamsFromJson(const QJsonValue& v, const JsonPath& path);

} // namespace cs
