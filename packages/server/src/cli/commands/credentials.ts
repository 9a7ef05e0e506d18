/** netloom tokens create | list | revoke, netloom keys create | list | revoke */
import type { Command } from 'commander';
import type { CliCommand, CliContext } from '../context.ts';
import { createBasicKey } from '../../domain/identity/credentials/basic-keys.ts';
import { credentialSummary, listCredentials, revokeCredential } from '../../domain/identity/credentials/listing.ts';
import { createToken } from '../../domain/identity/credentials/tokens.ts';
import { requireUserByEmail, resolveOrganization } from '../../domain/identity/users.ts';

interface CreateOpts {
  email: string;
  scopes?: string;
  org?: string;
  name?: string;
}

function listAndRevoke(group: Command, ctx: CliContext): void {
  group
    .command('list')
    .description('list the credentials (tokens and key pairs) of a user or an organization; never shows secrets')
    .option('--email <email>', 'credentials created by this user')
    .option('--org <org>', 'credentials owned by this organization (id or name)')
    .option('--all', 'include revoked credentials')
    .action((o: { email?: string; org?: string; all?: boolean }) =>
      ctx.run(async (db) => {
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
    .action((o: { id: string }) => ctx.run((db) => revokeCredential(db, o.id)));
}

function createOptions(cmd: Command): Command {
  return cmd
    .requiredOption('--email <email>', 'owner (user credential) or creator (organization credential)')
    .option('--scopes <scopes>', 'comma-separated scopes, e.g. networks:read,networks:write (default: full access)')
    .option('--org <org>', 'organization-owned credential (id or name); the user must be its Owner or Admin')
    .option('--name <name>', 'a label');
}

async function resolveCreate(ctx: CliContext, db: Parameters<Parameters<CliContext['run']>[0]>[0], o: CreateOpts) {
  const user = await requireUserByEmail(db, o.email);
  const orgId = o.org ? (await resolveOrganization(db, o.org)).id : null;
  return { userId: user.id, orgId, scopes: o.scopes ?? null, name: o.name, maxPerUser: ctx.config.limits.maxCredentialsPerUser };
}

export const tokensCommand: CliCommand = {
  name: 'tokens',
  register(program, ctx) {
    const tokens = program.command('tokens').description('bearer API tokens (nl_…)');
    createOptions(tokens.command('create').description('create a bearer token (printed once)')).action((o: CreateOpts) =>
      ctx.run(async (db) => {
        const { token, credential } = await createToken(db, await resolveCreate(ctx, db, o));
        return { token, ...credentialSummary(credential) };
      }),
    );
    listAndRevoke(tokens, ctx);
  },
};

export const keysCommand: CliCommand = {
  name: 'keys',
  register(program, ctx) {
    const keys = program.command('keys').description('legacy Basic key pairs (deprecated; prefer tokens)');
    createOptions(keys.command('create').description('create a public/private key pair (private key printed once)')).action((o: CreateOpts) =>
      ctx.run(async (db) => {
        const { publicKey, privateKey, credential } = await createBasicKey(db, await resolveCreate(ctx, db, o));
        return { ...credentialSummary(credential), publicKey, privateKey };
      }),
    );
    listAndRevoke(keys, ctx);
  },
};
