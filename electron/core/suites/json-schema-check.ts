// The `json: {schema: …}` assertion: a reply checked against a JSON Schema the suite author wrote,
// with ajv (and ajv-formats for "format": "email", "date-time", …). The draft follows the schema's
// own `$schema` (2020-12, 2019-09), else draft-07, the one most schemas in the wild are written to.
// Its `pattern`s and `patternProperties` run on the linear-time engine, within one budget per
// check, like a `regex:` assertion (linear-regex.ts): the schema comes from the suite file.
import type { AnySchemaObject, ValidateFunction } from 'ajv';
import type { RegExpEngine } from 'ajv/dist/types';
import Ajv from 'ajv';
import Ajv2019 from 'ajv/dist/2019.js';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { compileLinearRegex, PatternBudgetError, PatternError, withinPatternBudget } from './linear-regex';

/** ajv's hook for another regular-expression engine; `code` names it in standalone code, unused here. */
const linearEngine: RegExpEngine = Object.assign(
  (pattern: string, flags: string) => {
    try {
      return compileLinearRegex(pattern, flags);
    } catch (error) {
      if (!(error instanceof PatternError)) throw error;
      const words = error.message.charAt(0).toLowerCase() + error.message.slice(1);
      throw new PatternError(`pattern ${JSON.stringify(pattern)}: ${words}`);
    }
  },
  { code: 'linearRegExp' },
);

const compiled = new WeakMap<object, ValidateFunction>();

function ajvFor(schema: AnySchemaObject): Ajv {
  const declared = typeof schema.$schema === 'string' ? schema.$schema : '';
  // One instance per schema: two suites may both use `$id: order`, which one instance refuses.
  // Union types (`"type": ["string", "null"]`) are plain JSON Schema, not a mistake to warn about.
  const options = { allErrors: true, allowUnionTypes: true, code: { regExp: linearEngine } };
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
  try {
    if (withinPatternBudget(() => validate(value))) return undefined;
  } catch (error) {
    if (error instanceof PatternBudgetError) return error.message;
    throw error;
  }
  return (validate.errors ?? [])
    .slice(0, 5)
    .map((e) => `${e.instancePath || '(root)'} ${e.message ?? 'is invalid'}`)
    .join('; ');
}
