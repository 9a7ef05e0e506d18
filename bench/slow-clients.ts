// Slow-body clients (issue 9 item 2), shared by bench/slow-bodies.ts and scripts/replay-findings.ts:
// `n` connections each send the headers of a 1,000-byte JSON POST and then one byte every 200 ms — half
// to POST /api/v2/networks with the given token, half to the unauthenticated access-token exchange — until
// the service answers or closes. Resolves when every connection is closed, with each one's status line
// ('closed without answer' if none came) and when it closed (ms after `started`, performance.now()).
import { connect } from 'node:net';

export async function holdSlowBodies(port: number, n: number, token: string, started = performance.now()): Promise<{ statuses: Map<string, number>; closedAt: number[] }> {
  const closedAt: number[] = [];
  const statuses = new Map<string, number>();
  await Promise.all(Array.from({ length: n }, (_, i) => new Promise<void>((resolve) => {
    const path = i % 2 ? '/api/v2/embed/sessions/0123456789abcdef01234567/access-tokens' : '/api/v2/networks';
    const s = connect(port, '127.0.0.1');
    let answer = '';
    s.on('data', (d) => (answer += d));
    s.on('error', () => {});
    s.on('connect', () => {
      s.write(`POST ${path} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{`);
      const timer = setInterval(() => (s.destroyed ? clearInterval(timer) : s.write(' ')), 200);
      s.on('close', () => {
        clearInterval(timer);
        closedAt.push(performance.now() - started);
        const st = /^HTTP\/1\.1 (\d+)/.exec(answer)?.[1] ?? 'closed without answer';
        statuses.set(st, (statuses.get(st) ?? 0) + 1);
        resolve();
      });
    });
  })));
  return { statuses, closedAt };
}
