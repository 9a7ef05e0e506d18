/** @netloom/protocol — the typed contract between @netloom/embed (host page) and the embedded viewer. */
export * from './messages.ts';
export * from './commands.ts';
export * from './events.ts';
export * from './errors.ts';
export * from './viewer-contract.ts';
export type * from './types.ts';
export * from './problem-codes.ts';
export * from './problem-detail.ts';
export * from './job-text.ts';
