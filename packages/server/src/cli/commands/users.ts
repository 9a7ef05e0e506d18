/** netloom users create | set-plan | suspend | unverify | activate | invite | reset-link */
import type { CliCommand } from '../context.ts';
import { userJson } from '../present.ts';
import {
  activateUser,
  createUser,
  parsePlan,
  requireUserByEmail,
  setUserPlan,
  parseRole,
  resolveOrganization,
  suspendUser,
  unverifyUser,
} from '../../domain/identity/users.ts';
import { createInvitation, createResetLink } from '../../domain/identity/user-links.ts';

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
    users
      .command('invite')
      .description('print a one-time invitation link (7 days) that creates the account, optionally in an organization')
      .argument('<email>', 'e-mail address of the person invited')
      .option('--org <org>', 'organization id or exact name to join')
      .option('--role <role>', 'role in the organization (Owner, Admin, "Standard User", Access-only, "Simplified Access-only")', 'Standard User')
      .action((email: string, o: { org?: string; role: string }) =>
        ctx.run(async (db) => {
          const org = o.org ? await resolveOrganization(db, o.org) : null;
          const link = await createInvitation(db, ctx.config.publicUrl, { email, orgId: org?.id ?? null, role: org ? parseRole(o.role) : null, createdBy: 'cli' }, Date.now());
          return { url: link.url, email: link.email, organization: org?.name ?? null, expiresAt: link.expiresAt };
        }),
      );
    users
      .command('reset-link')
      .description('print a one-time password-reset link (1 hour) for an account; older reset links stop working')
      .argument('<email>', 'e-mail address of the account')
      .action((email: string) =>
        ctx.run(async (db) => {
          const link = await createResetLink(db, ctx.config.publicUrl, email, 'cli', Date.now());
          return { url: link.url, email: link.email, expiresAt: link.expiresAt };
        }),
      );
  },
};
