#pragma once
// The values every test of a design field tries (typical, the range's ends and one past them,
// not a number, each choice, ...), each with whether the field's declared range or choices
// accept it: the file, --set and the Design dock are each checked against these rows.
#include "DesignFields.h"

#include <QString>

#include <vector>

namespace cs::test {

struct DesignFieldRow {
    QString name, text;
    bool accepted; // by the field's range or choices alone (not by the other fields)
};

std::vector<DesignFieldRow> designFieldRows(const DesignField& f);
// A number as the table writes it: "8", "0.5".
QString designNumberText(double v);

} // namespace cs::test
