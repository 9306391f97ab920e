// `node --import dist/test/helpers/module-trace.js …`: every module the process loads
// (ES modules through a loader hook, CommonJS through Module._load), one URL or path a
// line, appended to $MODULE_TRACE_FILE. Used to check what a start loads, not how long it takes.
import { appendFileSync } from 'node:fs';
import Module, { register } from 'node:module';

const out = process.env.MODULE_TRACE_FILE;
if (out) {
  register(new URL('./module-trace-hooks.js', import.meta.url), { data: { out } });
  type Load = (request: string, parent: unknown, isMain: boolean) => unknown;
  const mod = Module as unknown as { _load: Load; _resolveFilename(request: string, parent: unknown): string };
  const load = mod._load;
  mod._load = function traced(request, parent, isMain) {
    const result = load.call(this, request, parent, isMain);
    if (!request.startsWith('node:') && !Module.isBuiltin(request)) {
      try {
        appendFileSync(out, `${mod._resolveFilename(request, parent)}\n`);
      } catch {
        // a request that resolved once may not resolve again (a cleared cache): not a load to record
      }
    }
    return result;
  };
}
