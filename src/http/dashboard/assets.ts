// The dashboard's static files, all from the installed package (it works offline): its own
// stylesheet and script (src/http/pages/dashboard/) and htmx from the htmx.org dependency.
import type http from 'node:http';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { packageRoot } from '../../lib/paths.js';

const own = path.join(packageRoot, 'src/http/pages/dashboard');
const require = createRequire(import.meta.url);

const FILES: Record<string, { file: () => string; type: string }> = {
  'dashboard.css': { file: () => path.join(own, 'dashboard.css'), type: 'text/css; charset=utf-8' },
  'dashboard.js': { file: () => path.join(own, 'dashboard.js'), type: 'text/javascript; charset=utf-8' },
  'htmx.min.js': { file: () => path.join(path.dirname(require.resolve('htmx.org/package.json')), 'dist/htmx.min.js'), type: 'text/javascript; charset=utf-8' },
};

const cache = new Map<string, Buffer>();

export async function serveAsset(name: string, res: http.ServerResponse): Promise<void> {
  const asset = FILES[name];
  if (!asset) {
    res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' });
    return void res.end('no such dashboard asset\n');
  }
  let body = cache.get(name);
  if (!body) cache.set(name, (body = await readFile(asset.file())));
  res.writeHead(200, { 'Content-Type': asset.type, 'Cache-Control': 'max-age=300', 'X-Content-Type-Options': 'nosniff' });
  res.end(body);
}
