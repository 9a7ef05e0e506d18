/** netloom users create | set-plan | suspend | unverify | activate */
import type { CliCommand } from '../context.ts';
import { userJson } from '../present.ts';
import {
  activateUser,
  createUser,
  parsePlan,
  requireUserByEmail,
  setUserPlan,
  suspendUser,
  unverifyUser,
} from '../../domain/identity.ts';

export const usersCommand: CliCommand = {
  name: 'users',
  register(program, ctx) {
    const users = program.command('users').description('manage user accounts');
    users
      .command('create')
      .description('create a user')
      .requiredOption('--email <email>', 'e-mail address (unique)')
      .requiredOption('--name <name>', 'display name')
      .option('--plan <plan>', 'free | pro | enterprise | partner', 'free')
      .option('--password <password>', 'password (8+ characters); omitted = no password sign-in')
      .option('--unverified', 'create the user as unverified')
      .action((o: { email: string; name: string; plan: string; password?: string; unverified?: boolean }) =>
        ctx.run(async (db) =>
          userJson(
            await createUser(db, {
              email: o.email,
              name: o.name,
              plan: parsePlan(o.plan),
              password: o.password ?? null,
              status: o.unverified ? 'unverified' : 'active',
            }),
          ),
        ),
      );
    users
      .command('set-plan')
      .description("change a user's plan")
      .requiredOption('--email <email>', 'the user')
      .requiredOption('--plan <plan>', 'free | pro | enterprise | partner')
      .action((o: { email: string; plan: string }) =>
        ctx.run(async (db) => userJson(await setUserPlan(db, (await requireUserByEmail(db, o.email)).id, parsePlan(o.plan)))),
      );
    const status = (name: string, what: string, fn: typeof suspendUser) =>
      users
        .command(name)
        .description(what)
        .requiredOption('--email <email>', 'the user')
        .action((o: { email: string }) => ctx.run(async (db) => userJson(await fn(db, (await requireUserByEmail(db, o.email)).id))));
    status('suspend', 'suspend a user (own credentials stop working; cannot own networks)', suspendUser);
    status('unverify', 'mark a user unverified (cannot own networks)', unverifyUser);
    status('activate', 'make a user active and verified again', activateUser);
  },
};
