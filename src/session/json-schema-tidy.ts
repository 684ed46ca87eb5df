// zod's override hook for the generated JSON Schema: artefacts out, the shared fields of open variants said once.
export type Json = Record<string, unknown>;

const SAFE_INTEGER = Number.MAX_SAFE_INTEGER;

export const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
export const propertiesOf = (schema: Json): Json => (isObject(schema.properties) ? schema.properties : {});
export const requiredOf = (schema: Json): unknown[] => (Array.isArray(schema.required) ? schema.required : []);

/**
 * zod's override hook, per generated node. Generation artefacts that say nothing or say it twice: z.int()'s implied
 * ±(2^53 − 1) bounds, `additionalProperties: {}` and `type: "string"` on property names (true of every JSON object),
 * `type` beside a string `const`, a `oneOf` of one, the regex beside `format: "date"` (RFC 3339 full-date already
 * means a real date), and in output schemas `default` (a decoded document has every field; the defaults are
 * documented in the input schema) and `additionalProperties: false` (an output schema says what a result holds; no
 * client needs to be told that it holds nothing else).
 */
export function tidy(io: 'input' | 'output') {
  return ({ jsonSchema }: { jsonSchema: Json }): void => {
    if (jsonSchema.maximum === SAFE_INTEGER) delete jsonSchema.maximum;
    if (jsonSchema.minimum === -SAFE_INTEGER) delete jsonSchema.minimum;
    const additional = jsonSchema.additionalProperties;
    if (isObject(additional) && Object.keys(additional).length === 0) delete jsonSchema.additionalProperties;
    const names = jsonSchema.propertyNames as Json | undefined;
    if (names?.type === 'string') delete names.type;
    if (names && Object.keys(names).length === 0) delete jsonSchema.propertyNames;
    const oneOf = jsonSchema.oneOf;
    if (Array.isArray(oneOf) && oneOf.length === 1) {
      delete jsonSchema.oneOf;
      Object.assign(jsonSchema, oneOf[0]);
    }
    if (jsonSchema.format === 'date') delete jsonSchema.pattern;
    if (io === 'output') {
      delete jsonSchema.default;
      if (jsonSchema.additionalProperties === false) delete jsonSchema.additionalProperties;
    }
    factorOpenVariants(jsonSchema);
    // `const` says the type already.
    if (typeof jsonSchema.const === 'string' && jsonSchema.type === 'string') delete jsonSchema.type;
  };
}

/** Property names whose schema (as JSON) and requiredness are the same in every variant, in the first's order. */
export function commonProperties(variants: readonly Json[]): string[] {
  const [first, ...others] = variants;
  if (!first) return [];
  return Object.keys(propertiesOf(first)).filter((key) => {
    const text = JSON.stringify(propertiesOf(first)[key]);
    const required = requiredOf(first).includes(key);
    return others.every((v) => JSON.stringify(propertiesOf(v)[key]) === text && requiredOf(v).includes(key) === required);
  });
}

/** A variant without the common properties (and without them in `required`). */
export function withoutProperties(variant: Json, common: readonly string[]): Json {
  return {
    properties: Object.fromEntries(Object.entries(propertiesOf(variant)).filter(([key]) => !common.includes(key))),
    required: requiredOf(variant).filter((key) => !common.includes(key as string)),
  };
}

const isOpenObject = (variant: unknown): variant is Json =>
  isObject(variant) && variant.type === 'object' && variant.additionalProperties === undefined;

/**
 * A `oneOf` of open objects (the decoded items) that share properties with identical schemas: those are stated once
 * beside the `oneOf`, which applies both (for objects that allow other properties this is the same schema).
 */
function factorOpenVariants(jsonSchema: Json): void {
  const variants = jsonSchema.oneOf;
  if (!Array.isArray(variants) || variants.length < 2 || !variants.every(isOpenObject)) return;
  const common = commonProperties(variants);
  if (common.length === 0) return;
  const first = variants[0] as Json;
  jsonSchema.type = 'object';
  jsonSchema.properties = Object.fromEntries(common.map((key) => [key, propertiesOf(first)[key]]));
  jsonSchema.required = requiredOf(first).filter((key) => common.includes(key as string));
  // oneOf last, after the shared part, as a reader expects.
  delete jsonSchema.oneOf;
  jsonSchema.oneOf = variants.map((variant) => {
    const { type: _object, properties: _p, required: _r, ...rest } = variant;
    return { ...withoutProperties(variant, common), ...rest };
  });
}
