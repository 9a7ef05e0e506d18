/** Every CLI command group, in help order. A new command is one file plus one line here. */
import type { CliCommand } from '../context.ts';
import { keysCommand, tokensCommand } from './credentials.ts';
import { embeddingCommand } from './embedding.ts';
import { metricsCommand } from './metrics.ts';
import { migrateCommand } from './migrate.ts';
import { networksCommand } from './networks.ts';
import { orgsCommand } from './orgs.ts';
import { usersCommand } from './users.ts';
import { workerCommand } from './worker.ts';

export const COMMANDS: readonly CliCommand[] = [usersCommand, orgsCommand, tokensCommand, keysCommand, networksCommand, metricsCommand, embeddingCommand, migrateCommand, workerCommand];
