#!/usr/bin/env node
// The project runs on Node 24 (TypeScript by type stripping). `npm install` brings Node 24 into
// node_modules/.bin, which npm scripts and npx put first on PATH.
//
// `npm start` enters here, not at src/main.ts: a JavaScript entry turns Node's compile cache on
// before the first TypeScript file loads, so a restart with a warm cache strips no types at all and
// never loads Node's type stripper (swc compiled to WebAssembly). Entering at a .ts file loads it for
// that file alone: ~16 MB more RSS and ~0.1 s more start on a 2-core AMD EPYC.
import module from 'node:module';

const major = Number(process.versions.node.split('.')[0]);
if (major < 24) {
  process.stderr.write(
    `agent-access needs Node.js 24 or newer (this is ${process.version}). Run it through npm, which uses the Node 24 that npm install brought: npx agent-access --help\n`,
  );
  process.exit(1);
}
module.enableCompileCache?.();
const { main } = await import('../src/main.ts');
process.exitCode = await main(process.argv.slice(2));
