/** What every CLI command gets: the configuration, a database opener and JSON output. */
import type { Command } from 'commander';
import type { Kysely } from 'kysely';
import type { Config } from '../config.ts';
import { openDatabase } from '../store/db.ts';
import { migrate } from '../store/migrations/index.ts';
import type { Database } from '../store/schema.ts';
import { databaseEphemeralStore } from '../store/embed-ephemeral.ts';
import { signingKeyLoader, type EmbedContext } from '../domain/embedding/context.ts';

export interface CliContext {
  config: Config;
  /**
   * Opens the database (migrating it first, so a fresh data dir works; safe while the server runs),
   * runs `fn`, closes, and prints its result as JSON on stdout.
   */
  run<T>(fn: (db: Kysely<Database>) => Promise<T>, opts?: { migrate?: boolean }): Promise<void>;
  /** A commander action that `run`s `fn` with the command's arguments and options (what it answers is printed). */
  action<A extends unknown[]>(fn: (db: Kysely<Database>, ...args: A) => Promise<unknown>): (...args: A) => Promise<void>;
  print(value: unknown): void;
}

/** A top-level command group: one file, registered in commands/index.ts. */
export interface CliCommand {
  name: string;
  register(program: Command, ctx: CliContext): void;
}

/** `netloom <name> …`: a command group whose sub-commands `declare` adds to it. */
export function commandGroup(name: string, description: string, declare: (group: Command, ctx: CliContext) => void): CliCommand {
  return { name, register: (program, ctx) => declare(program.command(name).description(description), ctx) };
}

export function createContext(config: Config, out: (s: string) => void = (s) => process.stdout.write(s)): CliContext {
  const print = (value: unknown) => out(JSON.stringify(value, null, 2) + '\n');
  const run: CliContext['run'] = async (fn, opts = {}) => {
    const handle = await openDatabase(config);
    try {
      if (opts.migrate !== false) await migrate(handle.db);
      print(await fn(handle.db));
    } finally {
      await handle.close();
    }
  };
  return {
    config,
    print,
    run,
    action:
      (fn) =>
      (...args) =>
        run((db) => fn(db, ...args)),
  };
}

/** Comma list option parser. */
export function list(value: string): string[] {
  return value.split(',').map((s) => s.trim()).filter(Boolean);
}

/** The embedding context of a CLI command (database-backed ephemeral state; the CLI never needs Redis). */
export function embedContext(ctx: CliContext, db: Kysely<Database>): EmbedContext {
  return { db, config: ctx.config, state: databaseEphemeralStore(db), now: Date.now, signingKey: signingKeyLoader(db, ctx.config) };
}
