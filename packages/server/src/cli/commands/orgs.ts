/** netloom orgs list | show | create | add-member | set-plan | members */
import { commandGroup, embedContext } from '../context.ts';
import { ORG, PLAN, setPlanCommand, USER } from '../options.ts';
import { membershipJson, orgJson } from '../present.ts';
import {
  addMember,
  createOrganization,
  parsePlan,
  parseRole,
  requireUserByEmail,
  resolveOrganization,
  setOrganizationPlanOf,
} from '../../domain/identity/users.ts';
import { listOrganizationMembers, listOrganizations, organizationOverview } from '../../domain/organizations/members.ts';
import { settingsView } from '../../domain/embedding/settings.ts';
import { chatSettings } from '../../domain/embedding/chat-settings.ts';

export const orgsCommand = commandGroup('orgs', 'manage organizations and their members', (orgs, ctx) => {
  orgs
    .command('list')
    .description('every organization: id, name, plan, member count, embedding on/off and seats')
    .action(
      ctx.action(async (db) => {
        const ectx = embedContext(ctx, db);
        return Promise.all(
          (await listOrganizations(db)).map(async (o) => {
            const s = await settingsView(ectx, o.id);
            return { ...orgJson(o), memberCount: o.memberCount, embedding: { enabled: s.enabled, seats: s.seats, seatsUsed: s.seatsUsed } };
          }),
        );
      }),
    );
  orgs
    .command('show')
    .argument('<org>', 'organization id or name')
    .description('one organization: plan, counts, members and roles, embedding settings and AI chat')
    .action(
      ctx.action(async (db, org: string) => {
        const ectx = embedContext(ctx, db);
        const o = await resolveOrganization(db, org);
        const [overview, members, embedding, chat] = await Promise.all([
          organizationOverview(ectx, o.id),
          listOrganizationMembers(db, o.id),
          settingsView(ectx, o.id),
          chatSettings(ectx, o.id),
        ]);
        return { ...orgJson(o), ...overview, members, embedding, chat };
      }),
    );
  orgs
    .command('create')
    .description('create an organization with its owner (role Owner)')
    .requiredOption('--name <name>', 'organization name')
    .requiredOption(...PLAN)
    .requiredOption('--owner <email>', 'e-mail of the owner (must not belong to another organization)')
    .action(
      ctx.action(async (db, o: { name: string; plan: string; owner: string }) => {
        const owner = await requireUserByEmail(db, o.owner);
        const { org, membership } = await createOrganization(db, { name: o.name, plan: parsePlan(o.plan), ownerUserId: owner.id });
        return { ...orgJson(org), owner: membershipJson(membership, owner) };
      }),
    );
  orgs
    .command('add-member')
    .description('add a user to an organization (or change their role)')
    .requiredOption(...ORG)
    .requiredOption(...USER)
    .requiredOption('--role <role>', 'Owner | Admin | "Standard User" | Access-only | "Simplified Access-only"')
    .action(
      ctx.action(async (db, o: { org: string; email: string; role: string }) => {
        const org = await resolveOrganization(db, o.org);
        const user = await requireUserByEmail(db, o.email);
        return membershipJson(await addMember(db, { orgId: org.id, userId: user.id, role: parseRole(o.role) }), user);
      }),
    );
  setPlanCommand(orgs, ctx, "change an organization's plan", ORG, async (db, o: { org: string; plan: string }, plan) => orgJson(await setOrganizationPlanOf(db, (await resolveOrganization(db, o.org)).id, plan)));
  orgs
    .command('members')
    .description('list the members of an organization')
    .requiredOption(...ORG)
    .action(ctx.action(async (db, o: { org: string }) => listOrganizationMembers(db, (await resolveOrganization(db, o.org)).id)));
});
