#include "DesignFieldRows.h"

#include <QLocale>

#include <algorithm>
#include <cmath>

namespace cs::test {
namespace {
QString qs(const std::string& s) {
    return QString::fromStdString(s);
}
} // namespace

QString designNumberText(double v) {
    return std::floor(v) == v ? QString::number((long long)v)
                              : QString::number(v, 'g', QLocale::FloatingPointShortest);
}

std::vector<DesignFieldRow> designFieldRows(const DesignField& f) {
    std::vector<DesignFieldRow> rows{{"typical", qs(f.defaultText), true}};
    switch (f.type) {
    case FieldType::Integer:
    case FieldType::Number: {
        const bool integer = f.type == FieldType::Integer;
        const double fraction = f.min + 0.5;
        rows.insert(rows.end(),
                    {{"min", designNumberText(f.min), !f.aboveMin},
                     {"max", designNumberText(f.max), true},
                     {"min-1", designNumberText(f.min - 1), false},
                     {"max+1", designNumberText(f.max + 1), false},
                     {"not a number", "abc", false},
                     {"fraction", designNumberText(fraction), !integer && fraction <= f.max},
                     {"empty", "", false}});
        break;
    }
    case FieldType::Choice:
        for (const std::string& c : f.choices)
            rows.push_back({qs(c), qs(c), true});
        rows.push_back({"unknown", "nonesuch", false});
        rows.push_back({"upper case", qs(f.choices.front()).toUpper(),
                        std::count(f.choices.begin(), f.choices.end(),
                                   qs(f.choices.front()).toUpper().toStdString()) > 0});
        break;
    case FieldType::Text:
        rows.insert(rows.end(), {{"min length", QString(int(f.min), 'x'), true},
                                 {"max length", QString(int(f.max), 'x'), true},
                                 {"below min length", QString(int(f.min) - 1, 'x'), false},
                                 {"above max length", QString(int(f.max) + 1, 'x'), false},
                                 {"space", "a b", !f.identifier},
                                 {"dot", "a.b", !f.identifier}});
        break;
    }
    return rows;
}

} // namespace cs::test
