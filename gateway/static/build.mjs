// The web client's one build (docs/client.md): the ES modules of gateway/static/ bundled, split and
// minified by esbuild into gateway/static/dist/ (generated, git-ignored), each file named by its
// content's hash so the gateway may tell browsers to keep it for a year; the HTML shell and the
// service worker written with those names; every text file also precompressed (brotli and gzip),
// so the gateway sends the smaller copy without compressing on each request.
//
// `node gateway/static/build.mjs` (run by `make setup`); `--watch` builds again on every change.

import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';

const STATIC = dirname(fileURLToPath(import.meta.url));
const DIST = join(STATIC, 'dist');
// the sound library an entry of its own: a chunk named for it (zzfx-HASH.js), fetched at the first gesture
const ENTRIES = ['app.js', 'styles.css', 'offline.css', 'vendor/zzfx.js'];
const COMPRESSED = /\.(js|css|html|svg|json|webmanifest)$/;

const options = {
  absWorkingDir: STATIC,
  entryPoints: ENTRIES,
  bundle: true,
  splitting: true, // each screen's import() its own chunk: the lobby's first screen loads only what it needs
  format: 'esm',
  minify: true,
  target: 'es2020',
  outdir: DIST,
  entryNames: '[name]-[hash]',
  chunkNames: 'c-[hash]',
  assetNames: '[name]-[hash]', // art and fonts a module or the styles import: hashed too
  loader: { '.svg': 'file', '.png': 'file', '.woff2': 'file' },
  metafile: true,
  legalComments: 'eof', // the libraries' licence notices kept (ZzFX's MIT)
  logLevel: 'warning',
};

/** The build's output files by their source entry: {'app.js': 'app-HASH.js', …}. */
function entryNames(metafile) {
  const names = {};
  for (const [out, info] of Object.entries(metafile.outputs)) {
    if (info.entryPoint) names[info.entryPoint] = basename(out);
  }
  return names;
}

/**
 * The chunks an entry of the build needs before it runs:
 * asked beside the page, not each after its importer is read.
 */
function closure(metafile, module) {
  const [start] = Object.entries(metafile.outputs).find(([, info]) => info.entryPoint === module);
  const seen = new Set([start]);
  const visit = (out) => {
    for (const i of metafile.outputs[out].imports) {
      if (i.kind === 'import-statement' && !seen.has(i.path)) { seen.add(i.path); visit(i.path); }
    }
  };
  visit(start);
  return [...seen].map((p) => basename(p));
}

/**
 * A page of the build from its source (index.html, offline.html): the hashed names of its scripts and
 * style sheets, and the chunks the entry needs preloaded.
 */
function page(source, names, metafile) {
  let html = readFileSync(join(STATIC, source), 'utf8');
  for (const [entry, built] of Object.entries(names)) {
    html = html.replaceAll(`/static/${entry}`, `/static/dist/${built}`);
  }
  if (!html.includes('<script')) return html;
  const chunks = new Set(closure(metafile, 'app.js'));
  chunks.delete(names['app.js']);
  const links = [...chunks].map((c) => `  <link rel="modulepreload" href="/static/dist/${c}">\n`).join('');
  return html.replace('</head>', `${links}</head>`);
}

/**
 * The service worker, built from sw.js with what it keeps: every hashed file (the screens loaded
 * later too, so a table opens offline-fast once seen) and the offline page. Its cache's name is the
 * build's hash: a new build's worker drops the old files.
 */
async function serviceWorker(files) {
  const version = files.map((f) => f.replace(/^.*-|\..*$/g, '')).sort().join('').slice(0, 64);
  const shellFiles = files.map((f) => `/static/dist/${f}`);
  await esbuild.build({
    absWorkingDir: STATIC,
    entryPoints: ['sw.js'],
    outfile: join(DIST, 'sw.js'),
    minify: true,
    target: 'es2020',
    define: { SHELL_FILES: JSON.stringify(shellFiles), SHELL_VERSION: JSON.stringify(version) },
    logLevel: 'warning',
  });
}

function compress(dir) {
  for (const name of readdirSync(dir)) {
    if (!COMPRESSED.test(name)) continue;
    const body = readFileSync(join(dir, name));
    const copies = {
      br: brotliCompressSync(body, {
        params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: body.length },
      }),
      gz: gzipSync(body, { level: 9 }),
    };
    // a copy only where it is smaller: a tiny file (a chunk of one line) is sent as it is
    for (const [ext, copy] of Object.entries(copies)) if (copy.length < body.length) writeFileSync(join(dir, `${name}.${ext}`), copy);
  }
}

async function finish(result) {
  const names = entryNames(result.metafile);
  const files = Object.keys(result.metafile.outputs).map((out) => basename(out));
  writeFileSync(join(DIST, 'index.html'), page('index.html', names, result.metafile));
  writeFileSync(join(DIST, 'offline.html'), page('offline.html', names, result.metafile));
  await serviceWorker(files);
  compress(DIST);
}

// A vendored library's licence notice (MIT: "included in all copies"), the block comment that names its
// licence: marked `/*!`, esbuild keeps it in the build.
const notices = {
  name: 'notices',
  setup(build) {
    build.onLoad({ filter: /[\\/]vendor[\\/][^\\/]+\.js$/ }, (args) => ({
      contents: readFileSync(args.path, 'utf8')
        .replace(/\/\*[^!][\s\S]*?\*\//g, (c) => (/license/i.test(c) ? `/*!${c.slice(2)}` : c)),
      loader: 'js',
    }));
  },
};

const clean = {
  name: 'clean',
  setup(build) {
    build.onStart(() => rmSync(DIST, { recursive: true, force: true })); // no stale hashed file kept
    build.onEnd(async (result) => {
      if (result.errors.length === 0) await finish(result);
    });
  },
};

if (process.argv.includes('--watch')) {
  const ctx = await esbuild.context({ ...options, plugins: [notices, clean] });
  await ctx.watch();
  console.log('watching gateway/static/ (Ctrl-C stops)');
} else {
  await esbuild.build({ ...options, plugins: [notices, clean] });
}
