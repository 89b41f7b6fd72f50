/**
 * Checks a value against a JSON Schema derived from the protocol's zod schemas (z.toJSONSchema), without zod
 * in the webview bundle. It checks what a render relies on — types, required fields, enums and literals,
 * unions, array items, record values — and deliberately not what only the host's inbound checks need:
 * string and number bounds, patterns, and closed objects (a host object may carry more fields than the
 * webview reads). `KNOWN_KEYWORDS` lists every keyword it understands or ignores on purpose; a unit test
 * fails when the derived schema uses another, so a zod change cannot silently weaken the check.
 */

/** The subset of JSON Schema that z.toJSONSchema emits for the protocol. */
export interface JsonSchema {
  type?: JsonType | JsonType[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: JsonSchema | boolean;
  items?: JsonSchema;
  prefixItems?: JsonSchema[];
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  $ref?: string;
  $defs?: Record<string, JsonSchema>;
  definitions?: Record<string, JsonSchema>;
}

type JsonType = 'object' | 'array' | 'string' | 'number' | 'integer' | 'boolean' | 'null';

/** Keywords checked here, then keywords deliberately not checked (bounds, closedness, annotations). */
export const KNOWN_KEYWORDS: ReadonlySet<string> = new Set([
  ...['type', 'properties', 'required', 'additionalProperties', 'items', 'prefixItems', 'enum', 'const'],
  ...['anyOf', 'oneOf', 'allOf', '$ref', '$defs', 'definitions'],
  ...['$schema', 'id', '$id', 'title', 'description', 'default', 'propertyNames'],
  ...['minLength', 'maxLength', 'pattern', 'format', 'minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'minItems', 'maxItems'],
]);

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function hasType(value: unknown, type: JsonType): boolean {
  switch (type) {
    case 'object':
      return isObject(value);
    case 'array':
      return Array.isArray(value);
    case 'string':
      return typeof value === 'string';
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'integer':
      return typeof value === 'number' && Number.isInteger(value);
    case 'boolean':
      return typeof value === 'boolean';
    case 'null':
      return value === null;
  }
}

/** The schema a `$ref` names: `#` (the root) or `#/$defs/<name>` / `#/definitions/<name>`. */
function resolveRef(ref: string, root: JsonSchema): JsonSchema | undefined {
  if (ref === '#') return root;
  const m = /^#\/(\$defs|definitions)\/(.+)$/.exec(ref);
  if (!m) return undefined;
  const defs = m[1] === '$defs' ? root.$defs : root.definitions;
  return defs?.[
    decodeURIComponent(m[2] ?? '')
      .replace(/~1/g, '/')
      .replace(/~0/g, '~')
  ];
}

function matchesObject(value: Record<string, unknown>, schema: JsonSchema, root: JsonSchema): boolean {
  for (const key of schema.required ?? []) if (!Object.hasOwn(value, key) || value[key] === undefined) return false;
  const properties = schema.properties ?? {};
  for (const [key, sub] of Object.entries(properties)) {
    if (value[key] !== undefined && !matches(value[key], sub, root)) return false;
  }
  // A record's values (an object schema for additionalProperties); `false` (closed) is not checked.
  const rest = schema.additionalProperties;
  if (isObject(rest)) {
    for (const [key, item] of Object.entries(value)) if (!Object.hasOwn(properties, key) && !matches(item, rest, root)) return false;
  }
  return true;
}

function matchesArray(value: unknown[], schema: JsonSchema, root: JsonSchema): boolean {
  const prefix = schema.prefixItems ?? [];
  if (value.length < prefix.length || !prefix.every((s, i) => matches(value[i], s, root))) return false;
  return schema.items === undefined || value.slice(prefix.length).every((item) => matches(item, schema.items as JsonSchema, root));
}

/** Whether `value` has the shape `schema` promises (`root` resolves `$ref`s; see the module comment for what is left out). */
export function matches(value: unknown, schema: JsonSchema, root: JsonSchema = schema): boolean {
  if (schema.$ref !== undefined) {
    const target = resolveRef(schema.$ref, root);
    if (!target || !matches(value, target, root)) return false;
  }
  if (schema.type !== undefined) {
    const types = Array.isArray(schema.type) ? schema.type : [schema.type];
    if (!types.some((t) => hasType(value, t))) return false;
  }
  if (schema.const !== undefined && value !== schema.const) return false;
  if (schema.enum !== undefined && !schema.enum.includes(value)) return false;
  if (schema.anyOf && !schema.anyOf.some((s) => matches(value, s, root))) return false;
  // oneOf as anyOf: with open objects two branches may both fit; either is a shape the render handles.
  if (schema.oneOf && !schema.oneOf.some((s) => matches(value, s, root))) return false;
  if (schema.allOf && !schema.allOf.every((s) => matches(value, s, root))) return false;
  if (isObject(value) && (schema.properties || schema.required || schema.additionalProperties !== undefined)) return matchesObject(value, schema, root);
  if (Array.isArray(value) && (schema.items || schema.prefixItems)) return matchesArray(value, schema, root);
  return true;
}
