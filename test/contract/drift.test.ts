// The generated client types are the document's current types.
import '../helpers/env.js';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkedInSchemaTypes, generateSchemaTypes } from './generate.js';

test('test/contract/schema.ts is what openapi-typescript makes of the current document (else: npm run contract:generate)', async () => {
  const [current, checkedIn] = await Promise.all([generateSchemaTypes(), checkedInSchemaTypes()]);
  assert.ok(current === checkedIn, 'test/contract/schema.ts is out of date: run `npm run contract:generate` and commit the result');
});
