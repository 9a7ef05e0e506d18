/**
 * What means the same in every command, written once: the shared options (`.requiredOption(...ORG)`:
 * commander flags and help text) and the `set-plan` command of users and organizations.
 */
import type { Command } from 'commander';
import type { Kysely } from 'kysely';
import type { CliContext } from './context.ts';
import { parsePlan, type Plan } from '../domain/identity/users.ts';
import type { Database } from '../store/schema.ts';

type OptionSpec = readonly [flags: string, description: string];

/** An organization, by id or exact name (domain/identity/users.ts resolveOrganization). */
export const ORG: OptionSpec = ['--org <org>', 'organization id or name'];
/** An existing user, by e-mail (requireUserByEmail). */
export const USER: OptionSpec = ['--email <email>', 'the user'];
/** A plan (parsePlan). */
export const PLAN: OptionSpec = ['--plan <plan>', 'free | pro | enterprise | partner'];

/** `<group> set-plan <target option> --plan <plan>`: `apply` changes the target's plan and answers what is printed. */
export function setPlanCommand<O extends { plan: string }>(group: Command, ctx: CliContext, description: string, target: OptionSpec, apply: (db: Kysely<Database>, o: O, plan: Plan) => Promise<unknown>): void {
  group
    .command('set-plan')
    .description(description)
    .requiredOption(...target)
    .requiredOption(...PLAN)
    .action(ctx.action((db, o: O) => apply(db, o, parsePlan(o.plan))));
}
