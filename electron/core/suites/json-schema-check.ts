// The `json: {schema: …}` assertion: a reply checked against a JSON Schema the suite author wrote,
// with ajv (and ajv-formats for "format": "email", "date-time", …). The draft follows the schema's
// own `$schema` (2020-12, 2019-09), else draft-07, the one most schemas in the wild are written to.
import type { AnySchemaObject, ValidateFunction } from 'ajv';
import Ajv from 'ajv';
import Ajv2019 from 'ajv/dist/2019.js';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

const compiled = new WeakMap<object, ValidateFunction>();

function ajvFor(schema: AnySchemaObject): Ajv {
  const declared = typeof schema.$schema === 'string' ? schema.$schema : '';
  // One instance per schema: two suites may both use `$id: order`, which one instance refuses.
  // Union types (`"type": ["string", "null"]`) are plain JSON Schema, not a mistake to warn about.
  const options = { allErrors: true, allowUnionTypes: true };
  const ajv = declared.includes('2020-12')
    ? new Ajv2020(options)
    : declared.includes('2019-09')
      ? new Ajv2019(options)
      : new Ajv(options);
  addFormats(ajv);
  return ajv;
}

/** Compiles once per schema object; throws with ajv's words when the schema itself is invalid. */
export function compileJsonSchema(schema: Record<string, unknown>): ValidateFunction {
  let validate = compiled.get(schema);
  if (!validate) {
    validate = ajvFor(schema).compile(schema);
    compiled.set(schema, validate);
  }
  return validate;
}

/** Undefined when `value` matches, else ajv's account of what does not (paths and reasons). */
export function schemaMismatch(schema: Record<string, unknown>, value: unknown): string | undefined {
  const validate = compileJsonSchema(schema);
  if (validate(value)) return undefined;
  return (validate.errors ?? [])
    .slice(0, 5)
    .map((e) => `${e.instancePath || '(root)'} ${e.message ?? 'is invalid'}`)
    .join('; ');
}
