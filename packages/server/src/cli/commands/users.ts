/** netloom users create | set-plan | suspend | unverify | activate | invite | reset-link | mfa-reset */
import { commandGroup } from '../context.ts';
import { PLAN, setPlanCommand, USER } from '../options.ts';
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
import { cliPublicUrl, createInvitation, createResetLink } from '../../domain/identity/user-links.ts';
import { resetMfa } from '../../domain/identity/mfa.ts';

export const usersCommand = commandGroup('users', 'manage user accounts', (users, ctx) => {
  users
    .command('create')
    .description('create a user')
    .requiredOption('--email <email>', 'e-mail address (unique)')
    .requiredOption('--name <name>', 'display name')
    .option(...PLAN, 'free')
    .option('--password <password>', 'password (8+ characters); omitted = no password sign-in')
    .option('--unverified', 'create the user as unverified')
    .action(
      ctx.action(async (db, o: { email: string; name: string; plan: string; password?: string; unverified?: boolean }) =>
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
  setPlanCommand(users, ctx, "change a user's plan", USER, async (db, o: { email: string; plan: string }, plan) => userJson(await setUserPlan(db, (await requireUserByEmail(db, o.email)).id, plan)));
  const status = (name: string, what: string, fn: typeof suspendUser) =>
    users
      .command(name)
      .description(what)
      .requiredOption(...USER)
      .action(ctx.action(async (db, o: { email: string }) => userJson(await fn(db, (await requireUserByEmail(db, o.email)).id))));
  status('suspend', 'suspend a user (own credentials stop working; cannot own networks)', suspendUser);
  status('unverify', 'mark a user unverified (cannot own networks)', unverifyUser);
  status('activate', 'make a user active and verified again', activateUser);
  users
    .command('invite')
    .description('print a one-time invitation link (7 days) that creates the account, optionally in an organization')
    .argument('<email>', 'e-mail address of the person invited')
    .option('--org <org>', 'organization id or exact name to join')
    .option('--role <role>', 'role in the organization (Owner, Admin, "Standard User", Access-only, "Simplified Access-only")', 'Standard User')
    .action(
      ctx.action(async (db, email: string, o: { org?: string; role: string }) => {
        const org = o.org ? await resolveOrganization(db, o.org) : null;
        const link = await createInvitation(db, await cliPublicUrl(db, ctx.config), { email, orgId: org?.id ?? null, role: org ? parseRole(o.role) : null, createdBy: 'cli' }, Date.now());
        return { url: link.url, email: link.email, organization: org?.name ?? null, expiresAt: link.expiresAt };
      }),
    );
  users
    .command('reset-link')
    .description('print a one-time password-reset link (1 hour) for an account; older reset links stop working. The link still asks for the second factor of an account with MFA unless --clear-mfa')
    .argument('<email>', 'e-mail address of the account')
    .option('--clear-mfa', "also turn the account's MFA off now (as mfa-reset), for someone who lost their authenticator and recovery codes and whose identity you checked")
    .action(
      ctx.action(async (db, email: string, o: { clearMfa?: boolean }) => {
        const cleared = o.clearMfa ? await resetMfa(db, (await requireUserByEmail(db, email)).id) : null;
        const link = await createResetLink(db, await cliPublicUrl(db, ctx.config), email, 'cli', Date.now());
        return { url: link.url, email: link.email, expiresAt: link.expiresAt, ...(cleared ? { mfaCleared: cleared.hadMfa, endedSessions: cleared.endedSessions } : {}) };
      }),
    );
  users
    .command('mfa-reset')
    .description("turn an account's MFA off (secret and recovery codes deleted, every web session ended) — for someone who lost their authenticator and recovery codes and whose identity you checked; they sign in with their password and may enrol again")
    .argument('<email>', 'e-mail address of the account')
    .action(
      ctx.action(async (db, email: string) => {
        const user = await requireUserByEmail(db, email);
        const r = await resetMfa(db, user.id);
        return { email: user.email, mfaCleared: r.hadMfa, endedSessions: r.endedSessions };
      }),
    );
});
