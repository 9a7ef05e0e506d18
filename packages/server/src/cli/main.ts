/**
 * `netloom` CLI entry (run through bin/netloom.js). Same environment as the server (loadConfig);
 * results as JSON on stdout; errors as JSON on stderr, `{ "error": { "code", "status"?, "detail" } }`,
 * with exit code 1. Safe to run while the server runs on the same database (SQLite WAL + busy timeout;
 * PostgreSQL transactions).
 */
import { Command, CommanderError } from 'commander';
import { loadConfig } from '../config.ts';
import { isDomainError } from '../domain/errors.ts';
import { COMMANDS } from './commands/index.ts';
import { createContext } from './context.ts';

export function buildProgram(ctx: ReturnType<typeof createContext>): Command {
  const program = new Command('netloom')
    .description('Netloom administration: users, organizations, plans, credentials, migrations')
    .exitOverride()
    .configureOutput({ writeErr: () => {} })
    .showHelpAfterError(false);
  for (const c of COMMANDS) c.register(program, ctx);
  // Sub-commands inherit neither exitOverride nor output settings: apply them everywhere.
  const apply = (cmd: Command) => {
    cmd.exitOverride().configureOutput({ writeErr: () => {} });
    cmd.commands.forEach(apply);
  };
  program.commands.forEach(apply);
  return program;
}

function fail(error: { code: string; status?: number; detail: string }): never {
  process.stderr.write(JSON.stringify({ error }) + '\n');
  process.exit(1);
}

export async function main(argv: string[]): Promise<void> {
  let ctx;
  try {
    ctx = createContext(loadConfig(process.env));
  } catch (err) {
    fail({ code: 'INVALID_ARGS', detail: (err as Error).message });
  }
  const program = buildProgram(ctx);
  try {
    await program.parseAsync(argv, { from: 'user' });
  } catch (err) {
    if (err instanceof CommanderError) {
      if (err.exitCode === 0) process.exit(0); // --help, --version
      fail({ code: 'INVALID_ARGS', detail: err.message.replace(/^error: /, '') });
    }
    if (isDomainError(err)) fail({ code: err.code, status: err.status, detail: err.detail });
    fail({ code: 'INTERNAL', detail: err instanceof Error ? err.message : String(err) });
  }
}

await main(process.argv.slice(2));
