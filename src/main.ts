// CLI entry: `agent-access <command>` (src/cli/main.ts dispatches). Node's compile cache is turned on
// before the commands load, so a restart reuses the compiled (and type-stripped) modules: start to
// /readyz fell from ~1.5 s to ~1.1 s on this kind of machine (bench W6). The cache lives in the OS
// temporary directory (NODE_COMPILE_CACHE overrides it) and is checked against each file's content.
// `npm start` and `npx agent-access` enter at bin/agent-access.js, which turns it on before this
// file loads too (this call then finds it on); `node src/main.ts` turns it on here.
import module from 'node:module';

module.enableCompileCache?.();

export const { main } = await import('./cli/main.ts');

if (import.meta.main) {
  process.exitCode = await main(process.argv.slice(2));
}
