/**
 * A JSON schema as Anthropic's structured outputs (`output_config.format`) accept it: every object closed,
 * only the string formats the API knows, `oneOf` as `anyOf`, and what the API cannot enforce (bounds,
 * patterns, other formats) moved into the description, so the model still reads it and our zod schemas
 * still check it. The same transform as the Anthropic SDK's `transformJSONSchema` (lib/transform-json-
 * schema), kept here so core needs no SDK; test/unit/model/outputSchema.test.ts holds the two equal.
 *
 * The order of the rules, per node: `$defs` (kept, transformed), then a `$ref` ends the node; literals
 * (`enum`, `const`) replace the type; `anyOf`/`oneOf`/`allOf`; else the declared type; description and
 * title; the type's own keywords; last, every keyword left over is appended to the description.
 */
type Json = Record<string, unknown>;

const SUPPORTED_STRING_FORMATS = new Set(['date-time', 'time', 'date', 'duration', 'email', 'hostname', 'uri', 'ipv4', 'ipv6', 'uuid']);

const isPrimitive = (value: unknown): boolean => value === null || typeof value !== 'object';

function pop(node: Json, key: string): unknown {
  const value = node[key];
  delete node[key];
  return value;
}

export function structuredOutputSchema(schema: Json): Json {
  return transform(structuredClone(schema));
}

/** Transforms `node` (a private copy: the keywords it takes are removed from it). */
function transform(node: Json): Json {
  const out: Json = {};
  const defs = pop(node, '$defs') as Record<string, Json> | undefined;
  if (defs !== undefined) out.$defs = Object.fromEntries(Object.entries(defs).map(([name, def]) => [name, transform(def)]));
  const ref = pop(node, '$ref');
  if (ref !== undefined) {
    out.$ref = ref;
    return out;
  }
  const enumValues = node.enum;
  if (Array.isArray(enumValues) && enumValues.length > 0 && enumValues.every(isPrimitive)) out.enum = pop(node, 'enum');
  if (node.const !== undefined && isPrimitive(node.const)) out.const = pop(node, 'const');
  const hasLiterals = 'enum' in out || 'const' in out;
  const declaredType = pop(node, 'type');
  const type = hasLiterals ? undefined : declaredType;
  const anyOf = pop(node, 'anyOf');
  const oneOf = pop(node, 'oneOf');
  const allOf = pop(node, 'allOf');
  // `$schema` names the dialect and constrains nothing, so it stays out of the description.
  pop(node, '$schema');
  if (Array.isArray(anyOf)) out.anyOf = anyOf.map((v: Json) => transform(v));
  else if (Array.isArray(oneOf)) out.anyOf = oneOf.map((v: Json) => transform(v));
  else if (Array.isArray(allOf)) out.allOf = allOf.map((v: Json) => transform(v));
  else if (!hasLiterals) {
    if (type === undefined) throw new Error('JSON schema must have a type defined if anyOf/oneOf/allOf/enum/const are not used');
    out.type = type;
  }
  const description = pop(node, 'description');
  if (description !== undefined) out.description = description;
  const title = pop(node, 'title');
  if (title !== undefined) out.title = title;
  if (type === 'object') {
    const properties = (pop(node, 'properties') ?? {}) as Record<string, Json>;
    out.properties = Object.fromEntries(Object.entries(properties).map(([key, prop]) => [key, transform(prop)]));
    pop(node, 'additionalProperties');
    out.additionalProperties = false;
    const required = pop(node, 'required');
    if (required !== undefined) out.required = required;
  } else if (type === 'string') {
    const format = pop(node, 'format');
    if (format !== undefined && SUPPORTED_STRING_FORMATS.has(format as string)) out.format = format;
    else if (format !== undefined) node.format = format;
  } else if (type === 'array') {
    const items = pop(node, 'items');
    if (items !== undefined) out.items = transform(items as Json);
    const minItems = pop(node, 'minItems');
    if (minItems === 0 || minItems === 1) out.minItems = minItems;
    else if (minItems !== undefined) node.minItems = minItems;
  }
  if (Object.keys(node).length > 0) {
    const existing = out.description as string | undefined;
    const rest = Object.entries(node)
      .map(([key, value]) => `${key}: ${JSON.stringify(value)}`)
      .join(', ');
    out.description = `${existing ? `${existing}\n\n` : ''}{${rest}}`;
  }
  return out;
}
