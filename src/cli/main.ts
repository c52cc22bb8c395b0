// `agent-access <command>`: each command is a module; this file only dispatches (src/main.ts is the entry).
import { ConfigError } from '../config/load.ts';
import { migrateCommand } from './migrate.ts';
import { serveCommand } from './serve.ts';
import { orgsCommand } from './orgs.ts';
import { usersCommand } from './users.ts';
import { seedCommand } from './seed.ts';
import { importCommand } from './import.ts';
import { grantsCommand } from './grants.ts';

type Command = { summary: string; run: (args: string[]) => Promise<number> };

const commands: Record<string, Command> = {
  serve: { summary: 'Run the service (migrates the database first). The default command.', run: serveCommand },
  migrate: { summary: 'Apply pending database migrations and exit.', run: migrateCommand },
  seed: { summary: 'Load the demo dataset (--meetings N up to 1,000,000, --all-transcripts, --seed TEXT).', run: seedCommand },
  import: { summary: 'Import NDJSON files (one per record type) into an organization: import DIR [--org DOMAIN].', run: importCommand },
  orgs: { summary: 'Organizations: create, list, and configure SSO (orgs sso set).', run: orgsCommand },
  users: { summary: 'Users of an organization: list, set-role, disable, enable.', run: usersCommand },
  grants: { summary: 'Connected apps (OAuth grants): list, revoke.', run: grantsCommand },
};

function help(): string {
  const width = Math.max(...Object.keys(commands).map((n) => n.length));
  const lines = Object.entries(commands).map(([name, c]) => `  ${name.padEnd(width)}  ${c.summary}`);
  return [
    'Usage: agent-access <command> [options]',
    '',
    'The agent access layer: OAuth 2.1 authorization server, remote MCP server and public site.',
    '',
    'Commands:',
    ...lines,
    '',
    'Configuration comes from environment variables; see the README for the full table.',
    '',
  ].join('\n');
}

export async function main(argv: string[]): Promise<number> {
  const [name = 'serve', ...args] = argv;
  if (name === '--help' || name === '-h' || name === 'help') {
    process.stdout.write(help());
    return 0;
  }
  const command = commands[name];
  if (!command) {
    process.stderr.write(`agent-access: unknown command "${name}"\n\n${help()}`);
    return 2;
  }
  try {
    return await command.run(args);
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`agent-access: configuration error: ${error.message}\n`);
      return 1;
    }
    const message = error instanceof Error ? error.message : String(error);
    process.stderr.write(`agent-access: ${message}\n`);
    return 1;
  }
}
