// The new ids of an import (src/domain/sandbox-file-ids.ts): computed for UUIDs (time and
// counter kept, so order is kept; random bits keyed per import), kept for other ids; an id
// seen twice is told; references to no row of the file still get new ids of their own.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { FileIds } from '../../src/domain/sandbox-file-ids.js';
import { newId } from '../../src/lib/ids.js';

test('UUIDs: a new id per id, the same every time it is asked, in the same order, unknown ids untouched', () => {
  const ids = new FileIds(newId, randomBytes(5));
  const old = Array.from({ length: 50_000 }, () => newId());
  const fresh = old.map((id) => ids.add(id)!);
  assert.equal(new Set(fresh).size, old.length);
  for (let i = 0; i < old.length; i++) {
    assert.notEqual(fresh[i], old[i]);
    assert.equal(ids.get(old[i]!), fresh[i]);
    assert.match(fresh[i]!, /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  }
  assert.deepEqual([...fresh].sort(), fresh, 'the new ids keep the old ones order');
  assert.equal(ids.add(old[7]!), undefined, 'an id seen before');
  assert.equal(ids.get(newId()), undefined);
});

test('another import of the same ids gets other new ids', () => {
  const id = newId();
  assert.notEqual(new FileIds(newId, randomBytes(5)).add(id), new FileIds(newId, randomBytes(5)).add(id));
});

test('ids that are not UUIDs keep a new UUID each; references to no row get one after settle', () => {
  const ids = new FileIds(newId, randomBytes(5));
  const a = ids.add('cus_bulk_1')!;
  assert.match(a, /^[0-9a-f-]{36}$/);
  assert.equal(ids.add('cus_bulk_1'), undefined);
  ids.name('gone_1');
  const dangling = newId();
  ids.name(dangling);
  ids.settle();
  assert.match(ids.get('gone_1')!, /^[0-9a-f-]{36}$/);
  assert.notEqual(ids.get(dangling), undefined);
  assert.notEqual(ids.get(dangling), dangling);
  assert.equal(ids.has(dangling), false, 'named, not a row of the file');
});
