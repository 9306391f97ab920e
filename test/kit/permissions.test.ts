// The kit types `sb.keys` by the permission kinds the generated client lists (src/testing
// imports only the client, lib and config: test/lint/layers.test.ts); that list is read off
// the OpenAPI document's operations, so it must be exactly the domain's permission kinds.
import '../helpers/env.js';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PERMISSIONS as generated } from '../../src/client/api.js';
import { PERMISSIONS } from '../../src/domain/permissions.js';

test("the generated client's permission kinds are the domain's", () => {
  assert.deepEqual([...generated].sort(), [...PERMISSIONS].sort());
});
