// Prints the gzipped size of the initial JS (the entry chunk and the chunks it imports statically), read from
// dist/index.html and the Vite manifest-free output. Fails above the 400 KB budget.
import { readFileSync, readdirSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { join } from 'node:path';

const dist = new URL('../dist/', import.meta.url).pathname;
const html = readFileSync(join(dist, 'index.html'), 'utf8');
const entries = [...html.matchAll(/<(?:script[^>]*src|link[^>]*rel="modulepreload"[^>]*href)="\/?([^"]+\.js)"/g)].map((m) => m[1]);
const seen = new Set();
const queue = [...entries];
while (queue.length) {
  const f = queue.shift();
  if (seen.has(f)) continue;
  seen.add(f);
  const src = readFileSync(join(dist, f), 'utf8');
  // static imports only: `import … from "./x.js"` / `import "./x.js"` (dynamic import() chunks are lazy)
  for (const m of src.matchAll(/(?:^|[;\n}])\s*import\s*(?:[^'"()]*?from\s*)?["']\.\/([^"']+\.js)["']/g)) queue.push(join('assets', m[1]));
}
let raw = 0;
let gz = 0;
for (const f of seen) {
  const b = readFileSync(join(dist, f));
  raw += b.length;
  gz += gzipSync(b, { level: 9 }).length;
  console.log(`${f}  ${(b.length / 1024).toFixed(1)} KB  gzip ${(gzipSync(b, { level: 9 }).length / 1024).toFixed(1)} KB`);
}
const all = readdirSync(join(dist, 'assets')).filter((f) => f.endsWith('.js')).length;
console.log(`initial JS: ${seen.size} file(s) of ${all}, ${(raw / 1024).toFixed(1)} KB raw, ${(gz / 1024).toFixed(1)} KB gzipped (budget 400 KB)`);
if (gz > 400 * 1024) process.exit(1);
