/** netloom networks handpick */
import { commandGroup } from '../context.ts';
import { DomainError } from '../../domain/errors.ts';
import { getNetwork, setHandpicked } from '../../store/networks.ts';

export const networksCommand = commandGroup('networks', 'operator actions on networks', (networks, ctx) => {
  networks
    .command('handpick')
    .description('show a Public network first on the Discover page (--off to undo)')
    .requiredOption('--id <id>', 'network id')
    .option('--off', 'remove the handpick')
    .action(
      ctx.action(async (db, o: { id: string; off?: boolean }) => {
        const net = await getNetwork(db, o.id);
        if (!net) throw new DomainError('NOT_FOUND', `no network ${JSON.stringify(o.id)}`);
        if (!o.off && net.status !== 'Public') throw new DomainError('INVALID_ARGS', 'only Public networks can be handpicked');
        await setHandpicked(db, o.id, !o.off);
        return { _id: net.id, name: net.name, status: net.status, handpicked: !o.off };
      }),
    );
});
