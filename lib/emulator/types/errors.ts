/**
 * The Atlas errors of the type system and of relationship instances, with the codes and message texts of
 * Apache Atlas's `AtlasErrorCode` enum (intg/src/main/java/org/apache/atlas/AtlasErrorCode.java), which the
 * data-map service reports in its `{requestId, errorCode, errorMessage}` bodies.
 *
 * @example
 * ```ts
 * import { typeErrors } from "./errors.ts";
 * console.log(typeErrors.typeNameNotFound("nope").code); // "ATLAS-404-00-001"
 * ```
 *
 * @module
 */
import { EmulatorError } from "../errors.ts";

/** Constructors of the type-system errors; each names its `AtlasErrorCode` constant. */
export const typeErrors = {
  /** TYPE_NAME_NOT_FOUND: also what Atlas's type registry raises for an unknown attribute type or supertype. */
  typeNameNotFound: (name: string): EmulatorError =>
    new EmulatorError(404, "ATLAS-404-00-001", `Given typename ${name} was invalid`),
  /** TYPE_GUID_NOT_FOUND. */
  typeGuidNotFound: (guid: string): EmulatorError =>
    new EmulatorError(404, "ATLAS-404-00-002", `Given type guid ${guid} was invalid`),
  /** CLASSIFICATION_NOT_FOUND: a classification whose type is not a classification def. */
  classificationNotFound: (name: string): EmulatorError =>
    new EmulatorError(404, "ATLAS-404-00-008", `Given classification ${name} was invalid`),
  /** TYPE_ALREADY_EXISTS. */
  typeAlreadyExists: (name: string): EmulatorError =>
    new EmulatorError(409, "ATLAS-409-00-001", `Given type ${name} already exists`),
  /** TYPE_HAS_REFERENCES: instances, assignments, subtypes or attributes still use the type. */
  typeHasReferences: (name: string): EmulatorError =>
    new EmulatorError(409, "ATLAS-409-00-002", `Given type ${name} has references`),
  /** TYPE_HAS_RELATIONSHIPS: a relationship def still has the entity type as an end. */
  typeHasRelationships: (name: string): EmulatorError =>
    new EmulatorError(409, "ATLAS-409-00-005", `Given type ${name} has associated relationshipDefs`),
  /** CIRCULAR_REFERENCE. */
  circularSuperTypes: (name: string): EmulatorError =>
    new EmulatorError(
      400,
      "ATLAS-400-00-002",
      `${name}: invalid supertypes - circular reference back to self ${name}`,
    ),
  /** INCOMPATIBLE_SUPERTYPE. */
  incompatibleSuperType: (name: string, superType: string): EmulatorError =>
    new EmulatorError(400, "ATLAS-400-00-003", `${name}: incompatible supertype ${superType}`),
  /** CANNOT_ADD_MANDATORY_ATTRIBUTE: an update may only add optional attributes. */
  cannotAddMandatory: (name: string, attribute: string): EmulatorError =>
    new EmulatorError(400, "ATLAS-400-00-00C", `${name}.${attribute} : can not add mandatory attribute`),
  /** ATTRIBUTE_DELETION_NOT_SUPPORTED. */
  attributeDeletion: (name: string, attribute: string): EmulatorError =>
    new EmulatorError(400, "ATLAS-400-00-00D", `${name}.${attribute} : attribute delete not supported`),
  /** SUPERTYPE_REMOVAL_NOT_SUPPORTED. */
  superTypeRemoval: (): EmulatorError =>
    new EmulatorError(400, "ATLAS-400-00-00E", "superType remove not supported"),
  /** RELATIONSHIPDEF_INSUFFICIENT_ENDS. */
  insufficientEnds: (name: string): EmulatorError =>
    new EmulatorError(400, "ATLAS-400-00-02C", `relationshipDef ${name} creation attempted without 2 ends`),
  /** RELATIONSHIPDEF_DOUBLE_CONTAINERS. */
  doubleContainers: (name: string): EmulatorError =>
    new EmulatorError(
      400,
      "ATLAS-400-00-02D",
      `relationshipDef ${name} creation attempted with both ends as containers`,
    ),
  /** RELATIONSHIPDEF_UNSUPPORTED_ATTRIBUTE_TYPE. */
  relationshipAttributeType: (typeName: string, name: string): EmulatorError =>
    new EmulatorError(
      400,
      "ATLAS-400-00-02F",
      `Cannot set an Attribute with type ${typeName} on relationship def ${name}, as it is not a primitive type `,
    ),
  /** RELATIONSHIPDEF_ASSOCIATION_AND_CONTAINER / _COMPOSITION_NO_CONTAINER / _AGGREGATION_NO_CONTAINER. */
  containerMismatch: (name: string, category: string): EmulatorError =>
    category === "ASSOCIATION"
      ? new EmulatorError(
        400,
        "ATLAS-400-00-030",
        `ASSOCIATION relationshipDef ${name} creation attempted with an end specifying isContainer`,
      )
      : new EmulatorError(
        400,
        category === "COMPOSITION" ? "ATLAS-400-00-031" : "ATLAS-400-00-032",
        `${category} relationshipDef ${name} creation attempted without an end specifying isContainer`,
      ),
  /** RELATIONSHIPDEF_LIST_ON_END. */
  listOnEnd: (name: string): EmulatorError =>
    new EmulatorError(
      400,
      "ATLAS-400-00-034",
      `relationshipDef ${name} cannot have a LIST cardinality on an end`,
    ),
  /** RELATIONSHIPDEF_INVALID_END_TYPE: an end that names a type which is not an entity type. */
  invalidEndType: (name: string, endType: string): EmulatorError =>
    new EmulatorError(400, "ATLAS-400-00-035", `relationshipDef ${name} has invalid end type ${endType}`),
  /** CLASSIFICATIONDEF_INVALID_ENTITYTYPES. */
  invalidEntityTypes: (name: string, entityType: string): EmulatorError =>
    new EmulatorError(
      400,
      "ATLAS-400-00-052",
      `ClassificationDef ‘${name}‘ has invalid ‘${entityType}‘ in entityTypes`,
    ),
  /** BUSINESS_METADATA_DEF_ATTRIBUTE_TYPE_INVALID. */
  businessAttributeType: (name: string, attribute: string): EmulatorError =>
    new EmulatorError(
      400,
      "ATLAS-400-00-094",
      `${name}.${attribute}: invalid attribute type. Business-metadata attribute cannot be of type entity/classification/struct/business-metadata`,
    ),
  /** UNKNOWN_ATTRIBUTE. */
  unknownAttribute: (attribute: string, typeName: string): EmulatorError =>
    new EmulatorError(400, "ATLAS-400-00-023", `Attribute ${attribute} not found for type ${typeName}`, {
      target: attribute,
    }),
  /** INVALID_VALUE: a value that is not of the attribute's type. */
  invalidValue: (path: string, typeName: string): EmulatorError =>
    new EmulatorError(400, "ATLAS-400-00-028", `invalid value: ${path}: invalid value for type ${typeName}`, {
      target: path,
    }),
  /** INVALID_BUSINESS_METADATA_NAME_FOR_ENTITY_TYPE: a business metadata group that is not defined. */
  unknownBusinessMetadata: (group: string, known: string[]): EmulatorError =>
    new EmulatorError(
      400,
      "ATLAS-400-00-095",
      `Invalid business-metadata: ${group} specified for entity, applicable business-metadata: [${
        known.join(", ")
      }]`,
    ),
  /** RELATIONSHIP_GUID_NOT_FOUND. */
  relationshipNotFound: (guid: string): EmulatorError =>
    new EmulatorError(404, "ATLAS-404-00-00C", `Given relationship guid ${guid} is invalid/not found`),
  /** INVALID_RELATIONSHIP_END_TYPE: an end entity that is not of the end def's type. */
  invalidRelationshipEnd: (name: string, end1Type: string, end2Type: string): EmulatorError =>
    new EmulatorError(
      400,
      "ATLAS-400-00-036",
      `invalid relationshipDef: ${name}: end type 1: ${end1Type}, end type 2: ${end2Type}`,
    ),
  /** RELATIONSHIP_END_IS_NULL. */
  relationshipEndMissing: (end: string): EmulatorError =>
    new EmulatorError(400, "ATLAS-400-00-07D", `Relationship end is invalid. Expected ${end} but is NULL`, {
      target: end,
    }),
  /** RELATIONSHIP_ALREADY_EXISTS. */
  relationshipExists: (name: string, end1: string, end2: string): EmulatorError =>
    new EmulatorError(
      409,
      "ATLAS-409-00-004",
      `relationship ${name} already exists between entities ${end1} and ${end2}`,
    ),
  /**
   * RELATIONSHIP_UPDATE_TYPE_CHANGE_NOT_ALLOWED. Atlas declares this one with HTTP 404 although its code
   * reads 400; the emulator answers as Atlas does.
   */
  relationshipTypeChange: (guid: string, current: string, requested: string): EmulatorError =>
    new EmulatorError(
      404,
      "ATLAS-400-00-06A",
      `change of relationship type is not permitted. relationship-guid=${guid}, current-type=${current}, new-type=${requested}`,
    ),
  /** RELATIONSHIP_UPDATE_END_CHANGE_NOT_ALLOWED; declared with HTTP 404 like the one above. */
  relationshipEndChange: (name: string, guid: string, current: string, requested: string): EmulatorError =>
    new EmulatorError(
      404,
      "ATLAS-400-00-069",
      `change of relationship end is not permitted. relationship-type=${name}, relationship-guid=${guid}, end-guid=${current}, updated-end-guid=${requested}`,
    ),
};
