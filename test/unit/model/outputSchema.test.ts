import { strict as assert } from 'node:assert';
import { transformJSONSchema } from '@anthropic-ai/sdk/lib/transform-json-schema';
import { z } from 'zod';
import { structuredOutputSchema } from '../../../src/core/model/outputSchema';
import { PLAN_DRAFT_JSON_SCHEMA, PlanDraftSchema } from '../../../src/core/roles/planDraft';

/** Core's copy of the SDK's structured-output transform must give what the SDK gives, schema for schema. */
describe('structured-output schema (core, no SDK)', () => {
  const schemas: Record<string, Record<string, unknown>> = {
    'the plan draft': z.toJSONSchema(PlanDraftSchema) as Record<string, unknown>,
    'bounds, patterns and formats': {
      type: 'object',
      properties: {
        name: { type: 'string', minLength: 1, pattern: '^[a-z]+$', format: 'email' },
        when: { type: 'string', format: 'date-time' },
        host: { type: 'string', format: 'hostname-ish' },
        tags: { type: 'array', items: { type: 'string' }, minItems: 1, maxItems: 3 },
        many: { type: 'array', items: { type: 'number', minimum: 0 }, minItems: 2 },
      },
      required: ['name'],
      additionalProperties: true,
    },
    'unions, literals and refs': {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      $defs: { leaf: { type: 'object', properties: { v: { const: 1 } } } },
      type: 'object',
      properties: {
        either: { oneOf: [{ type: 'string' }, { $ref: '#/$defs/leaf' }] },
        both: { allOf: [{ type: 'object', properties: {} }] },
        kind: { type: 'string', enum: ['a', 'b'], description: 'the kind' },
      },
    },
  };
  for (const [name, schema] of Object.entries(schemas)) {
    it(`matches the SDK's transform for ${name}`, () => {
      assert.deepEqual(structuredOutputSchema(schema), transformJSONSchema(structuredClone(schema)));
    });
  }

  it('leaves its input as it was', () => {
    const schema = { type: 'string', minLength: 2 };
    structuredOutputSchema(schema);
    assert.deepEqual(schema, { type: 'string', minLength: 2 });
  });

  it('is what the planner sends', () => {
    assert.deepEqual(PLAN_DRAFT_JSON_SCHEMA, transformJSONSchema(z.toJSONSchema(PlanDraftSchema)));
  });
});
