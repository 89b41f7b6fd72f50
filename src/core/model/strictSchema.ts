/**
 * JSON schemas as OpenAI's strict mode (structured outputs, strict function tools) accepts them, and the
 * way back for the values a model fills in.
 *
 * Strict mode wants every object closed (`additionalProperties: false`) with every key in `required`; an
 * optional key becomes a required key that may be null. It has no `oneOf` (→ `anyOf`), no tuples
 * (`prefixItems` → `items`), and lenient servers' grammar engines know even less, so validation keywords
 * (lengths, bounds, patterns) are dropped: our zod schemas check the answer anyway. A node strict mode
 * cannot express (an open object, a map) makes the whole schema non-strict, sent with `strict: false`.
 *
 * `stripAddedNulls` undoes the optional → nullable step on a model's answer, so a key the model set to
 * null because it had to is absent again, as the zod schemas of our tools expect.
 */
type Json = Record<string, unknown>;

const DROPPED = new Set([
  '$schema',
  'default',
  'examples',
  'minLength',
  'maxLength',
  'pattern',
  'format',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
  'minItems',
  'maxItems',
  'uniqueItems',
  'minProperties',
  'maxProperties',
  'title',
]);

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

function typeOfValue(v: unknown): string {
  if (v === null) return 'null';
  if (Number.isInteger(v)) return 'integer';
  return typeof v === 'number' ? 'number' : typeof v;
}

function allowsNull(schema: Json): boolean {
  if (schema.type === 'null' || (Array.isArray(schema.type) && schema.type.includes('null'))) return true;
  if (Array.isArray(schema.enum) && schema.enum.includes(null)) return true;
  const branches = (schema.anyOf ?? schema.oneOf) as unknown;
  return Array.isArray(branches) && branches.some((b) => isObject(b) && allowsNull(b));
}

function nullable(schema: Json): Json {
  if (allowsNull(schema)) return schema;
  if (Array.isArray(schema.anyOf)) return { ...schema, anyOf: [...schema.anyOf, { type: 'null' }] };
  if (Array.isArray(schema.enum)) {
    const types = new Set<string>((schema.enum as unknown[]).map(typeOfValue));
    types.add('null');
    return { ...schema, type: [...types], enum: [...schema.enum, null] };
  }
  if (typeof schema.type === 'string') return { ...schema, type: [schema.type, 'null'] };
  if (Array.isArray(schema.type)) return { ...schema, type: [...schema.type, 'null'] };
  const { description, ...rest } = schema;
  return { ...(description !== undefined ? { description } : {}), anyOf: [rest, { type: 'null' }] };
}

export interface StrictResult {
  schema: Json;
  /** False when some node cannot be made strict; send the schema with `strict: false` then. */
  strict: boolean;
}

export function toStrictSchema(schema: Json): StrictResult {
  let strict = true;
  const walk = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(walk);
    if (!isObject(node)) return node;
    const out: Json = {};
    for (const [key, value] of Object.entries(node)) {
      if (DROPPED.has(key)) continue;
      if (key === 'properties' && isObject(value)) {
        out.properties = Object.fromEntries(Object.entries(value).map(([k, v]) => [k, walk(v)]));
      } else if (key === 'oneOf') {
        out.anyOf = walk(value);
      } else if (key === 'const') {
        out.enum = [value];
      } else if (key === 'prefixItems' && Array.isArray(value)) {
        const items = value.map(walk) as Json[];
        const distinct = [...new Map(items.map((i) => [JSON.stringify(i), i])).values()];
        out.items = distinct.length === 1 ? distinct[0] : { anyOf: distinct };
      } else {
        out[key] = walk(value);
      }
    }
    if (out.enum !== undefined && out.type === undefined && Array.isArray(out.enum)) {
      const types = [...new Set((out.enum as unknown[]).map(typeOfValue))];
      out.type = types.length === 1 ? types[0] : types;
    }
    const isObjectType = out.type === 'object' || (Array.isArray(out.type) && out.type.includes('object')) || isObject(out.properties);
    if (isObjectType) {
      const properties = isObject(out.properties) ? out.properties : {};
      if (
        isObject(out.additionalProperties) ||
        out.additionalProperties === true ||
        (Object.keys(properties).length === 0 && out.additionalProperties !== false)
      ) {
        // A map or an open object: strict mode cannot say "any keys".
        strict = false;
      }
      const required = new Set(Array.isArray(out.required) ? (out.required as string[]) : []);
      out.properties = Object.fromEntries(Object.entries(properties).map(([k, v]) => [k, required.has(k) || !isObject(v) ? v : nullable(v)]));
      out.required = Object.keys(properties);
      if (strict) out.additionalProperties = false;
    }
    return out;
  };
  const converted = walk(schema) as Json;
  return { schema: converted, strict };
}

/** Removes the nulls a strict schema forced onto keys the original schema made optional. */
export function stripAddedNulls(value: unknown, schema: unknown): unknown {
  if (!isObject(schema)) return value;
  const branches = (schema.anyOf ?? schema.oneOf) as unknown;
  if (Array.isArray(branches)) {
    const branch = branches.find((b) => isObject(b) && fits(value, b));
    return branch ? stripAddedNulls(value, branch) : value;
  }
  if (Array.isArray(value)) return isObject(schema.items) ? value.map((v) => stripAddedNulls(v, schema.items)) : value;
  if (!isObject(value) || !isObject(schema.properties)) return value;
  const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
  const props = schema.properties;
  const out: Json = {};
  for (const [k, v] of Object.entries(value)) {
    const prop = props[k];
    if (v === null && !required.has(k) && isObject(prop) && !allowsNull(prop)) continue;
    out[k] = stripAddedNulls(v, prop);
  }
  return out;
}

/** Does `value` look like an instance of this union branch (type, and const/enum discriminants)? */
function fits(value: unknown, branch: Json): boolean {
  const t = branch.type;
  if (value === null) return allowsNull(branch);
  const actual = Array.isArray(value) ? 'array' : typeOfValue(value);
  if (typeof t === 'string' && t !== actual && !(t === 'number' && actual === 'integer')) return false;
  if (!isObject(value) || !isObject(branch.properties)) return true;
  for (const [k, prop] of Object.entries(branch.properties)) {
    if (!isObject(prop)) continue;
    if ('const' in prop && value[k] !== prop.const) return false;
    if (Array.isArray(prop.enum) && prop.enum.length === 1 && value[k] !== prop.enum[0]) return false;
  }
  return Object.keys(value).every((k) => k in (branch.properties as Json));
}
