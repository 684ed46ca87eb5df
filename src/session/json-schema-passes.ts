// Passes over a finished JSON Schema that keep its meaning and make it shorter (tools/list is in every model turn).
import { commonProperties, isObject, propertiesOf, requiredOf, withoutProperties, type Json } from './json-schema-tidy.js';

/** Keywords whose value is a schema, a list of schemas, or a map of names to schemas (only these hold subschemas). */
const ONE = ['items', 'additionalProperties', 'unevaluatedProperties', 'propertyNames', 'contains', 'not', 'if', 'then', 'else'];
const LIST = ['anyOf', 'oneOf', 'allOf', 'prefixItems'];
const MAP = ['properties', 'patternProperties', '$defs', 'dependentSchemas'];

/**
 * The schema with `rewrite` applied to it and to every subschema, innermost first. Values of other keywords
 * (`default`, `const`, `required`, …) are never entered, so a field named `title` or a default object stays as it is.
 */
export function mapSchemas(schema: unknown, rewrite: (node: Json) => Json): unknown {
  if (!isObject(schema)) return schema;
  const out: Json = {};
  for (const [key, value] of Object.entries(schema)) {
    if (ONE.includes(key)) out[key] = mapSchemas(value, rewrite);
    else if (LIST.includes(key) && Array.isArray(value)) out[key] = value.map((item) => mapSchemas(item, rewrite));
    else if (MAP.includes(key) && isObject(value))
      out[key] = Object.fromEntries(Object.entries(value).map(([name, item]) => [name, mapSchemas(item, rewrite)]));
    else out[key] = value;
  }
  return rewrite(out);
}

const map = (schema: Json, rewrite: (node: Json) => Json): Json => mapSchemas(schema, rewrite) as Json;

/** Keywords that apply to strings only: a `type` list's string branch takes them along. */
const STRING_KEYWORDS = new Set(['minLength', 'maxLength', 'pattern', 'format']);

/**
 * `type: ["string", "null"], …string keywords` → `anyOf: [{ type: "string", …string keywords }, { type: "null" }]`: the
 * same schema with one `type` per branch. A `type` list is legal JSON Schema, but clients that map tool schemas onto a
 * single-type dialect (the OpenAPI subset of some function-calling layers) reject it or drop the constraint; the MCP
 * Inspector warns about each one. zod writes a list for a plain nullable value (`z.string().nullable()`).
 */
export function singleTypes(schema: Json): Json {
  return map(schema, (node) => {
    const types = node.type;
    if (!Array.isArray(types)) return node;
    const shared: Json = {};
    const forStrings: Json = {};
    for (const [key, value] of Object.entries(node)) {
      if (key === 'type') continue;
      if (STRING_KEYWORDS.has(key)) forStrings[key] = value;
      else shared[key] = value;
    }
    return { ...shared, anyOf: types.map((type) => (type === 'string' ? { type, ...forStrings } : { type })) };
  });
}

const REF = '#/$defs/';
const isStrictObject = (schema: unknown): schema is Json => isObject(schema) && schema.type === 'object' && schema.additionalProperties === false;

/** Names of the definitions that some `oneOf` lists by `$ref` beside another one. */
function unionMembers(schema: Json): Set<string> {
  const names = new Set<string>();
  map(schema, (node) => {
    const oneOf = node.oneOf;
    if (Array.isArray(oneOf) && oneOf.length >= 2)
      for (const option of oneOf) if (isObject(option) && typeof option.$ref === 'string' && option.$ref.startsWith(REF)) names.add(option.$ref.slice(REF.length));
    return node;
  });
  return names;
}

/**
 * The strict objects of a union (the item kinds) share most fields: those go into one definition `base`, which each
 * kind applies with `allOf`, and `unevaluatedProperties: false` keeps each kind closed (it sees the properties that
 * `allOf` evaluated, where `additionalProperties` would not). Draft 2020-12 meaning, held to zod's verdicts by ajv
 * (test/unit/session-json-schema.test.ts); a validator without `unevaluatedProperties` still applies every field rule
 * and only lets extra keys through, and `allOf` (not a `$ref` beside `properties`) keeps it so in draft-07 ones.
 */
export function shareUnionFields(root: Json, base: string): Json {
  const defs = root.$defs;
  if (!isObject(defs) || base in defs) return root;
  const names = [...unionMembers(root)].filter((name) => isStrictObject(defs[name]));
  const kinds = names.map((name) => defs[name] as Json);
  const common = commonProperties(kinds);
  if (kinds.length < 2 || common.length === 0) return root;
  const first = kinds[0]!;
  const shared: Json = {
    type: 'object',
    properties: Object.fromEntries(common.map((key) => [key, propertiesOf(first)[key]])),
    required: requiredOf(first).filter((key) => common.includes(key as string)),
  };
  const rewritten = Object.fromEntries(
    Object.entries(defs).map(([name, schema]) => {
      if (!names.includes(name)) return [name, schema];
      // `type` stays: a validator does not infer it through `$ref` (ajv's strict mode refuses `properties` without it).
      const { type, properties: _p, required: _r, additionalProperties: _closed, ...rest } = schema as Json;
      return [name, { type, allOf: [{ $ref: `${REF}${base}` }], ...withoutProperties(schema as Json, common), unevaluatedProperties: false, ...rest }];
    }),
  );
  return { ...root, $defs: { ...rewritten, [base]: shared } };
}

/**
 * The schema without `required` below its root. For the decode output: decoding fills in every field, so every
 * property shown is present, which the document's description says once instead of a `required` list per object
 * (~400 bytes of the tool list). test/unit/session-json-schema.test.ts holds every decode result to that sentence.
 */
export function withoutNestedRequired(root: Json): Json {
  const { required, ...rest } = root;
  const stripped = map(rest, ({ required: _listed, ...node }) => node);
  return required === undefined ? stripped : { ...stripped, required };
}

/** Without `title` keywords: they name the document in GET /schema/session.json; in a tool, its title does. */
export function withoutTitles(schema: Json): Json {
  return map(schema, (node) => {
    if (typeof node.title !== 'string') return node;
    const { title: _name, ...rest } = node;
    return rest;
  });
}
