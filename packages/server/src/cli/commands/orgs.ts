/** netloom orgs list | show | create | add-member | set-plan | members */
import type { CliCommand } from '../context.ts';
import { embedContext } from '../context.ts';
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

export const orgsCommand: CliCommand = {
  name: 'orgs',
  register(program, ctx) {
    const orgs = program.command('orgs').description('manage organizations and their members');
    orgs
      .command('list')
      .description('every organization: id, name, plan, member count, embedding on/off and seats')
      .action(() =>
        ctx.run(async (db) => {
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
      .action((org: string) =>
        ctx.run(async (db) => {
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
      .requiredOption('--plan <plan>', 'free | pro | enterprise | partner')
      .requiredOption('--owner <email>', 'e-mail of the owner (must not belong to another organization)')
      .action((o: { name: string; plan: string; owner: string }) =>
        ctx.run(async (db) => {
          const owner = await requireUserByEmail(db, o.owner);
          const { org, membership } = await createOrganization(db, { name: o.name, plan: parsePlan(o.plan), ownerUserId: owner.id });
          return { ...orgJson(org), owner: membershipJson(membership, owner) };
        }),
      );
    orgs
      .command('add-member')
      .description('add a user to an organization (or change their role)')
      .requiredOption('--org <org>', 'organization id or name')
      .requiredOption('--email <email>', 'the user')
      .requiredOption('--role <role>', 'Owner | Admin | "Standard User" | Access-only | "Simplified Access-only"')
      .action((o: { org: string; email: string; role: string }) =>
        ctx.run(async (db) => {
          const org = await resolveOrganization(db, o.org);
          const user = await requireUserByEmail(db, o.email);
          return membershipJson(await addMember(db, { orgId: org.id, userId: user.id, role: parseRole(o.role) }), user);
        }),
      );
    orgs
      .command('set-plan')
      .description("change an organization's plan")
      .requiredOption('--org <org>', 'organization id or name')
      .requiredOption('--plan <plan>', 'free | pro | enterprise | partner')
      .action((o: { org: string; plan: string }) =>
        ctx.run(async (db) => orgJson(await setOrganizationPlanOf(db, (await resolveOrganization(db, o.org)).id, parsePlan(o.plan)))),
      );
    orgs
      .command('members')
      .description('list the members of an organization')
      .requiredOption('--org <org>', 'organization id or name')
      .action((o: { org: string }) =>
        ctx.run(async (db) => {
          const org = await resolveOrganization(db, o.org);
          return listOrganizationMembers(db, org.id);
        }),
      );
  },
};
