/**
 * `npm start`: opens the database, migrates, creates the first owner account on an empty database
 * (printed once on stderr, never logged), listens on PORT and shuts down gracefully on SIGTERM/SIGINT:
 * stops accepting connections, finishes in-flight requests, closes the database.
 */
import { loadConfig } from './config.ts';
import { buildApp } from './app.ts';
import { bootstrapOwner, formatBanner } from './domain/identity/bootstrap.ts';

const config = loadConfig();
const app = await buildApp(config);

if (config.bootstrapOwner) {
  const created = await bootstrapOwner(app.database.db, config);
  // The secrets go to stderr, never into the JSON log stream on stdout (docs/operations.md).
  if (created) process.stderr.write(formatBanner(created, config.publicUrl));
}

let closing = false;
async function shutdown(signal: string): Promise<void> {
  if (closing) return;
  closing = true;
  app.log.info({ signal }, 'shutting down: finishing in-flight requests');
  const timer = setTimeout(() => {
    app.log.error('graceful shutdown timed out; exiting');
    process.exit(1);
  }, 30_000);
  timer.unref();
  try {
    await app.close();
    process.exit(0);
  } catch (err) {
    app.log.error({ err }, 'error during shutdown');
    process.exit(1);
  }
}
process.on('SIGTERM', () => void shutdown('SIGTERM'));
process.on('SIGINT', () => void shutdown('SIGINT'));

// @fastify/compress asks every answer `instanceof Response`, and the first use of that global loads Node's
// fetch implementation (~120 ms): done here, before listening, rather than inside the first request.
void globalThis.Response;
await app.listen({ port: config.port, host: config.host });
