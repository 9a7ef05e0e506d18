/** netloom tokens create | list | revoke, netloom keys create | list | revoke */
import type { Kysely } from 'kysely';
import { commandGroup, type CliCommand } from '../context.ts';
import { createBasicKey } from '../../domain/identity/credentials/basic-keys.ts';
import type { CreateCredentialInput } from '../../domain/identity/credentials/issue.ts';
import { credentialSummary, listCredentials, revokeCredential } from '../../domain/identity/credentials/listing.ts';
import { createToken } from '../../domain/identity/credentials/tokens.ts';
import { requireUserByEmail, resolveOrganization } from '../../domain/identity/users.ts';
import type { Database } from '../../store/schema.ts';

interface CreateOpts {
  email: string;
  scopes?: string;
  org?: string;
  name?: string;
}

/** `create` (the kind's own), `list` and `revoke` (shared by every kind of credential). */
function credentialCommand(name: string, description: string, createDescription: string, create: (db: Kysely<Database>, input: CreateCredentialInput) => Promise<object>): CliCommand {
  return commandGroup(name, description, (group, ctx) => {
    group
      .command('create')
      .description(createDescription)
      .requiredOption('--email <email>', 'owner (user credential) or creator (organization credential)')
      .option('--scopes <scopes>', 'comma-separated scopes, e.g. networks:read,networks:write (default: full access)')
      .option('--org <org>', 'organization-owned credential (id or name); the user must be its Owner or Admin')
      .option('--name <name>', 'a label')
      .action(
        ctx.action(async (db, o: CreateOpts) => {
          const user = await requireUserByEmail(db, o.email);
          const orgId = o.org ? (await resolveOrganization(db, o.org)).id : null;
          return create(db, { userId: user.id, orgId, scopes: o.scopes ?? null, name: o.name, maxPerUser: ctx.config.limits.maxCredentialsPerUser });
        }),
      );
    group
      .command('list')
      .description('list the credentials (tokens and key pairs) of a user or an organization; never shows secrets')
      .option('--email <email>', 'credentials created by this user')
      .option('--org <org>', 'credentials owned by this organization (id or name)')
      .option('--all', 'include revoked credentials')
      .action(
        ctx.action(async (db, o: { email?: string; org?: string; all?: boolean }) => {
          if (!o.email && !o.org) throw new Error('give --email or --org');
          const userId = o.email ? (await requireUserByEmail(db, o.email)).id : undefined;
          const orgId = o.org ? (await resolveOrganization(db, o.org)).id : undefined;
          return listCredentials(db, { userId, orgId, includeRevoked: !!o.all });
        }),
      );
    group
      .command('revoke')
      .description('revoke a credential (effective on the next request)')
      .requiredOption('--id <id>', 'credential id')
      .action(ctx.action((db, o: { id: string }) => revokeCredential(db, o.id)));
  });
}

export const tokensCommand = credentialCommand('tokens', 'bearer API tokens (nl_…)', 'create a bearer token (printed once)', async (db, input) => {
  const { token, credential } = await createToken(db, input);
  return { token, ...credentialSummary(credential) };
});

export const keysCommand = credentialCommand('keys', 'legacy Basic key pairs (deprecated; prefer tokens)', 'create a public/private key pair (private key printed once)', async (db, input) => {
  const { publicKey, privateKey, credential } = await createBasicKey(db, input);
  return { ...credentialSummary(credential), publicKey, privateKey };
});
