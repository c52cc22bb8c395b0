// CLI entry: `agent-access <command>` (src/cli/main.ts dispatches). Node's compile cache is turned on
// before anything else loads, so a restart reuses the compiled (and type-stripped) modules: start to
// /readyz fell from ~1.5 s to ~1.1 s on this kind of machine (bench W6). The cache lives in the OS
// temporary directory (NODE_COMPILE_CACHE overrides it) and is checked against each file's content.
import module from 'node:module';

module.enableCompileCache?.();

export const { main } = await import('./cli/main.ts');

if (import.meta.main) {
  process.exitCode = await main(process.argv.slice(2));
}
