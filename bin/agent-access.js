#!/usr/bin/env node
// The project runs on Node 24 (TypeScript by type stripping). `npm install` brings Node 24 into
// node_modules/.bin, which npm scripts and npx put first on PATH.
const major = Number(process.versions.node.split('.')[0]);
if (major < 24) {
  process.stderr.write(
    `agent-access needs Node.js 24 or newer (this is ${process.version}). Run it through npm, which uses the Node 24 that npm install brought: npx agent-access --help\n`,
  );
  process.exit(1);
}
const { main } = await import('../src/main.ts');
process.exitCode = await main(process.argv.slice(2));
