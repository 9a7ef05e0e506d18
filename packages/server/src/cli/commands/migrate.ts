/** netloom migrate */
import type { CliCommand } from '../context.ts';
import { migrate } from '../../store/migrations/index.ts';

export const migrateCommand: CliCommand = {
  name: 'migrate',
  register(program, ctx) {
    program
      .command('migrate')
      .description('bring the database schema to the latest version (the server also does this at start)')
      .action(() => ctx.run((db) => migrate(db), { migrate: false }));
  },
};
