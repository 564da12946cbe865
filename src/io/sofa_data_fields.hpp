#pragma once
// The data fields SOFA master gives the components the importer maps or accepts, and the check
// that a scene writes no other: SOFA warns about an attribute that is no data field of the
// component and runs on with the default, which here would be a silently wrong answer (a
// misspelt youngModulus gives 5000). Private to the SOFA importer (io/sofa_*.cpp).
#include <string>
#include <vector>

#include "sofa_reader.hpp"

namespace eis::sofa {

// One SOFA class: its base classes and the names its own constructor and parse() take: the
// initData names, the initLink names, the addAlias names and the legacy attributes parse()
// reads (io/sofa_data_fields_table.cpp).
struct SofaClassFields {
  const char* name;
  std::vector<const char*> bases;
  std::vector<const char*> fields;
};
const std::vector<SofaClassFields>& sofaClassFields();

// Whether the component type's data fields are known (it or the class it was renamed to is in
// the table as a component the importer maps or accepts).
bool knowsDataFields(const std::string& type);
// Whether `field` is a data field, link, alias or legacy attribute of the known type, or an
// attribute every component takes (template, type, src, name).
bool isDataField(const std::string& type, const std::string& field);
// " (did you mean youngModulus?)" when a field of the type is near `field`, else "".
std::string didYouMean(const std::string& type, const std::string& field);

// Every attribute of `o` (a known type; others are left to the walk) is one of its data fields,
// and every link in them that names another known object's field names one of that object's
// fields. Throws eis::Error "FILE:LINE: Type 'name': unknown data field 'x' (did you mean y?)";
// with skipUnsupported an unknown field is a warning instead (a link to a missing field is
// always an error: the value it stands for does not exist).
void checkDataFields(Reader& reader, const SofaObject& o, bool skipUnsupported);
// The same for the objects the links written on `o` name directly (a constraint's BoxROI, a
// topology's loader).
void checkLinkedDataFields(Reader& reader, const SofaObject& o, bool skipUnsupported);

// Throws when `link`, written on `o` in `field`, names a field that its target object, of a
// known type, does not have (Reader follows links through it).
void checkLinkTarget(const Reader& reader, const SofaObject& o, const std::string& field,
                     const std::string& link, const SofaLinkTarget& target);

}  // namespace eis::sofa
