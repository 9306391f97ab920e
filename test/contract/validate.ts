// Checks an answer against the OpenAPI document: its status is documented on the
// operation and its JSON body matches that status's schema (ajv, JSON Schema 2020-12,
// formats checked). The document's objects are closed, so an undocumented field fails.
import assert from 'node:assert/strict';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Doc = any;

export type AnswerCheck = (method: string, schemaPath: string, status: number, contentType: string, body: () => Promise<unknown>) => Promise<void>;

export function answerChecker(doc: Doc): AnswerCheck {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats.default(ajv);
  ajv.addSchema({ $id: 'openapi.json', components: doc.components });
  return async (method, schemaPath, status, contentType, body) => {
    const where = `${method} ${schemaPath} → ${status}`;
    const op = doc.paths[schemaPath]?.[method.toLowerCase()];
    assert.ok(op, `${method} ${schemaPath} is in the document`);
    const documented = op.responses[String(status)];
    assert.ok(documented, `${where}: the status is documented (documented: ${Object.keys(op.responses).join(', ')})`);
    if (!contentType.startsWith('application/json')) return;
    const ref: string | undefined = documented.content?.['application/json']?.schema?.$ref;
    assert.ok(ref, `${where}: a JSON answer is documented with a named schema`);
    const validate = ajv.getSchema(`openapi.json${ref}`) ?? ajv.compile({ $ref: `openapi.json${ref}` });
    const value = await body();
    assert.ok(validate(value), `${where}: the answer matches ${ref}: ${ajv.errorsText(validate.errors)}`);
  };
}

export type StreamMessageCheck = (schemaPath: string, message: string, data: unknown) => void;

/** Checks one message of a `text/event-stream` answer against the schema the document names for it (`x-sse-messages`). */
export function streamMessageChecker(doc: Doc): StreamMessageCheck {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats.default(ajv);
  ajv.addSchema({ $id: 'openapi.json', components: doc.components });
  return (schemaPath, message, data) => {
    const media = doc.paths[schemaPath]?.get?.responses?.['200']?.content?.['text/event-stream'];
    assert.ok(media, `GET ${schemaPath} documents a text/event-stream answer`);
    const ref: string | undefined = media['x-sse-messages']?.[message]?.$ref;
    assert.ok(ref, `GET ${schemaPath}: the ${message} message is documented`);
    const validate = ajv.getSchema(`openapi.json${ref}`) ?? ajv.compile({ $ref: `openapi.json${ref}` });
    assert.ok(validate(data), `GET ${schemaPath} ${message} message matches ${ref}: ${ajv.errorsText(validate.errors)}`);
  };
}
