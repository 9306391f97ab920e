// Examples for the OpenAPI document: one JSON file per component in data/examples/,
// named after the component in kebab case (`Transaction` → transaction.json,
// `SaleRequest` → sale-request.json). A test checks every request body and main
// response has one and that it passes the route's own zod schema.
import { existsSync, readFileSync } from 'node:fs';
import { dataFile } from '../lib/paths.js';
import { COMPONENT_PREFIX } from './openapi-components.js';

export const exampleFileName = (component: string): string =>
  `${component.replace(/([a-z0-9])([A-Z])/g, '$1-$2').replace(/([A-Z])([A-Z][a-z])/g, '$1-$2').toLowerCase()}.json`;

export const examplePath = (component: string): string => dataFile('examples', exampleFileName(component));

/** The example of a component (given by name or `$ref`), or undefined when it has none. */
export function exampleFor(componentOrRef: string): unknown {
  const name = componentOrRef.startsWith(COMPONENT_PREFIX) ? componentOrRef.slice(COMPONENT_PREFIX.length) : componentOrRef;
  const file = examplePath(name);
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as unknown) : undefined;
}
