#include "DesignSets.h"

#include "DesignFields.h"
#include "InputError.h"
#include "SiteGenerator.h"

#include <QString>

#include <algorithm>
#include <cctype>
#include <tuple>

namespace cs {
namespace {

// Levenshtein distance, ignoring case: "podz" is one edit from "pods".
size_t editDistance(const std::string& a, const std::string& b) {
    std::vector<size_t> row(b.size() + 1);
    for (size_t j = 0; j <= b.size(); ++j)
        row[j] = j;
    for (size_t i = 1; i <= a.size(); ++i) {
        size_t diagonal = row[0];
        row[0] = i;
        for (size_t j = 1; j <= b.size(); ++j) {
            const bool same =
                std::tolower((unsigned char)a[i - 1]) == std::tolower((unsigned char)b[j - 1]);
            const size_t next = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (same ? 0 : 1)});
            diagonal = row[j];
            row[j] = next;
        }
    }
    return row[b.size()];
}

std::string joined(const std::vector<std::string>& keys) {
    std::string s;
    for (size_t i = 0; i < keys.size(); ++i)
        s += (i == 0 ? "" : ", ") + keys[i];
    return s;
}

[[noreturn]] void refuse(const std::string& set, const std::string& message) {
    throw InputException({{}, 0, 0, "--set " + set, message});
}

DesignFieldRef fieldOf(const SiteParams& p, const std::string& set, const std::string& key) {
    const std::optional<DesignFieldRef> ref = parseDesignFieldKey(key);
    const std::string nearest = "; nearest: " + joined(nearDesignKeys(p, key));
    if (!ref) refuse(set, "no such field" + nearest);
    if (ref->field->scope == DesignScope::Cluster && size_t(ref->cluster) >= p.clusters.size())
        refuse(set, "no such field: the design has " + std::to_string(p.clusters.size()) +
                        (p.clusters.size() == 1 ? " cluster" : " clusters") + nearest);
    return *ref;
}

} // namespace

std::vector<std::string> nearDesignKeys(const SiteParams& p, const std::string& key, size_t count) {
    // The field's own name first ("podz" is near "pods" in any scope), then the whole key.
    auto lastPart = [](const std::string& k) { return k.substr(k.find_last_of('.') + 1); };
    const std::string given = key.substr(0, 200), givenName = lastPart(given);
    std::vector<std::tuple<size_t, size_t, std::string>> ranked;
    for (const DesignFieldRef& r : designFieldRefs(p)) {
        const std::string k = designFieldKey(*r.field, r.cluster);
        ranked.emplace_back(editDistance(givenName, r.field->key), editDistance(given, k), k);
    }
    std::stable_sort(ranked.begin(), ranked.end(), [](const auto& a, const auto& b) {
        return std::tie(std::get<0>(a), std::get<1>(a)) < std::tie(std::get<0>(b), std::get<1>(b));
    });
    std::vector<std::string> keys;
    for (size_t i = 0; i < ranked.size() && i < count; ++i)
        keys.push_back(std::get<2>(ranked[i]));
    return keys;
}

void applyDesignSets(SiteParams& p, const std::vector<std::string>& sets) {
    for (const std::string& set : sets) {
        const size_t equals = set.find('=');
        if (equals == std::string::npos)
            refuse(set, "expected FIELD=VALUE, such as generator.clusters[0].oversubscription=3");
        const DesignFieldRef ref = fieldOf(p, set, set.substr(0, equals));
        try {
            setDesignField(p, *ref.field, ref.cluster,
                           QString::fromStdString(set.substr(equals + 1)));
        } catch (const InputException& e) {
            refuse(set, e.error().message);
        }
    }
}

void checkDesignWithSets(const SiteParams& p, const std::string& origin) {
    if (std::optional<InputError> e = checkSiteParams(p)) {
        e->file = origin + " with --set";
        throw InputException(*e);
    }
}

std::string designVariantName(const std::string& base, const SiteParams& p,
                              const std::vector<std::string>& sets) {
    std::vector<std::pair<std::string, std::string>> changes; // the shown key, its value
    for (const std::string& set : sets) {
        const size_t eq = set.find('=');
        if (eq == std::string::npos) continue; // applyDesignSets has refused it
        const std::string key = set.substr(0, eq);
        const auto ref = parseDesignFieldKey(key);
        if (!ref) continue;
        std::string shown = ref->field->key;
        if (ref->field->scope == DesignScope::Cluster && p.clusters.size() > 1 &&
            size_t(ref->cluster) < p.clusters.size())
            shown = p.clusters[size_t(ref->cluster)].name + " " + shown;
        const std::string value =
            designFieldText(p, *ref->field, ref->cluster).toStdString(); // as it was taken
        auto at = std::find_if(changes.begin(), changes.end(),
                               [&](const auto& c) { return c.first == shown; });
        if (at != changes.end()) changes.erase(at);
        changes.emplace_back(shown, value);
    }
    std::string name = base;
    for (size_t i = 0; i < changes.size(); ++i)
        name += (i == 0 ? " \u00b7 " : ", ") + changes[i].first + " " + changes[i].second;
    return name;
}

} // namespace cs
