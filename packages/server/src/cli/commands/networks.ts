/** netloom networks handpick */
import type { CliCommand } from '../context.ts';
import { DomainError } from '../../domain/errors.ts';
import { getNetwork, setHandpicked } from '../../store/networks.ts';

export const networksCommand: CliCommand = {
  name: 'networks',
  register(program, ctx) {
    const networks = program.command('networks').description('operator actions on networks');
    networks
      .command('handpick')
      .description("show a Public network first on the Discover page (--off to undo)")
      .requiredOption('--id <id>', 'network id')
      .option('--off', 'remove the handpick')
      .action((o: { id: string; off?: boolean }) =>
        ctx.run(async (db) => {
          const net = await getNetwork(db, o.id);
          if (!net) throw new DomainError('NOT_FOUND', `no network ${JSON.stringify(o.id)}`);
          if (!o.off && net.status !== 'Public') throw new DomainError('INVALID_ARGS', 'only Public networks can be handpicked');
          await setHandpicked(db, o.id, !o.off);
          return { _id: net.id, name: net.name, status: net.status, handpicked: !o.off };
        }),
      );
  },
};
