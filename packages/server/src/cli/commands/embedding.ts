/**
 * netloom embedding enable | disable | show | settings | limits — the service operator's levers
 * (enablement, managed-user seats, per-organization limit overrides) and the organization settings,
 * applied directly on the database (the server sees them on its next request; with Redis configured the
 * changes still live in the database, which every instance reads).
 */
import { commandGroup, embedContext, list } from '../context.ts';
import { ORG } from '../options.ts';
import { resolveOrganization } from '../../domain/identity/users.ts';
import { DomainError } from '../../domain/errors.ts';
import { setEnablement, settingsView, updateSettings } from '../../domain/embedding/settings.ts';
import type { EmbedContext } from '../../domain/embedding/context.ts';

const cli = { kind: 'cli' as const, id: 'cli' };

function wholeNumber(name: string) {
  return (value: string): number => {
    const n = Number(value);
    if (!Number.isInteger(n) || n < 0) throw new DomainError('INVALID_ARGS', `${name}: must be a whole number, got ${JSON.stringify(value)}`);
    return n;
  };
}

function onOff(value: string): boolean {
  if (['on', 'true', 'yes'].includes(value)) return true;
  if (['off', 'false', 'no'].includes(value)) return false;
  throw new DomainError('INVALID_ARGS', `expected on or off, got ${JSON.stringify(value)}`);
}

export const embeddingCommand = commandGroup('embedding', 'embedding: enablement and seats (operator), organization settings, limit overrides', (group, ctx) => {
  const withOrg = async <T>(org: string, fn: (e: EmbedContext, orgId: string) => Promise<T>) =>
    ctx.run(async (db) => {
      const o = await resolveOrganization(db, org);
      return { orgId: o.id, ...(await fn(embedContext(ctx, db), o.id)) };
    });

  group
    .command('enable')
    .description('enable embedding for an organization, optionally setting its managed-user seats')
    .requiredOption(...ORG)
    .option('--seats <n>', 'number of managed-user seats', wholeNumber('seats'))
    .action((o: { org: string; seats?: number }) => withOrg(o.org, (e, orgId) => setEnablement(e, orgId, cli, { enabled: true, seats: o.seats })));

  group
    .command('disable')
    .description('disable embedding (ends every session of the organization at once)')
    .requiredOption(...ORG)
    .action((o: { org: string }) => withOrg(o.org, (e, orgId) => setEnablement(e, orgId, cli, { enabled: false })));

  group
    .command('show')
    .description("show an organization's embedding settings, seats and effective limits")
    .requiredOption(...ORG)
    .action((o: { org: string }) => withOrg(o.org, (e, orgId) => settingsView(e, orgId)));

  group
    .command('settings')
    .description('change allowed origins, embeddable networks and the data-disclosure acknowledgement')
    .requiredOption(...ORG)
    .option('--origins <list>', 'allowed host origins, comma-separated (exact scheme://host[:port]); "" for none')
    .option('--all-owned-networks <on|off>', '"All owned networks" embeddable', onOff)
    .option('--networks <ids>', 'the chosen embeddable network ids, comma-separated; "" for none')
    .option('--accept-data-disclosure', 'record the data-disclosure acknowledgement')
    .option('--withdraw-data-disclosure', 'withdraw it (recorded; does not change embeddability)')
    .action((o: { org: string; origins?: string; allOwnedNetworks?: boolean; networks?: string; acceptDataDisclosure?: boolean; withdrawDataDisclosure?: boolean }) =>
      withOrg(o.org, (e, orgId) => {
        const body: Record<string, unknown> = {};
        if (o.origins !== undefined) body.allowedOrigins = list(o.origins);
        if (o.allOwnedNetworks !== undefined) body.allOwnedNetworks = o.allOwnedNetworks;
        if (o.networks !== undefined) body.embeddableNetworkIds = list(o.networks);
        if (o.acceptDataDisclosure) body.dataDisclosureAccepted = true;
        if (o.withdrawDataDisclosure) body.dataDisclosureAccepted = false;
        return updateSettings(e, orgId, cli, body);
      }),
    );

  group
    .command('limits')
    .description('per-organization overrides of the hourly embedding limits (operator)')
    .requiredOption(...ORG)
    .option('--provisioning <n>', 'provisioning, grants and session creation per hour (default 600)', wholeNumber('provisioning'))
    .option('--launch-tokens <n>', 'launch tokens per hour (default 6000)', wholeNumber('launch-tokens'))
    .option('--metrics <n>', 'embedded metric calculations per hour (default 3000)', wholeNumber('metrics'))
    .option('--redemptions <n>', 'launch-token redemptions per session per hour (default 60)', wholeNumber('redemptions'))
    .option('--ai-questions <n>', 'AI chat questions per calendar month (default 1000; 0 = none)', wholeNumber('ai-questions'))
    .option('--reset', 'remove every override (back to the defaults)')
    .action((o: { org: string; provisioning?: number; launchTokens?: number; metrics?: number; redemptions?: number; aiQuestions?: number; reset?: boolean }) =>
      withOrg(o.org, (e, orgId) => {
        const limits: Record<string, number | null> = {};
        if (o.reset) for (const k of ['provisioningPerHour', 'launchTokensPerHour', 'metricsPerHour', 'redemptionsPerSessionPerHour', 'aiQuestionsPerMonth']) limits[k] = null;
        if (o.provisioning !== undefined) limits.provisioningPerHour = o.provisioning;
        if (o.launchTokens !== undefined) limits.launchTokensPerHour = o.launchTokens;
        if (o.metrics !== undefined) limits.metricsPerHour = o.metrics;
        if (o.redemptions !== undefined) limits.redemptionsPerSessionPerHour = o.redemptions;
        if (o.aiQuestions !== undefined) limits.aiQuestionsPerMonth = o.aiQuestions;
        return setEnablement(e, orgId, cli, { limits });
      }),
    );
});
