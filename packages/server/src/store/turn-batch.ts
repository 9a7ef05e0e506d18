/**
 * Batches of one event-loop turn (the respondents' saves and link reads: store/answer-batch.ts,
 * store/surveys.ts getRespondentLink). Items added for the same key (a database handle) are handed to
 * `flush` together when the turn ends (setImmediate), or at once when `max` are waiting: a big batch is
 * not held until every request read in the turn has been handled, so the first answers go out while the
 * rest are still being read (on a burst of 1,000, waiting for the whole turn delayed every answer by the
 * turn's length).
 */
export function turnBatcher<K extends object, T>(max: number, flush: (key: K, items: T[]) => void): (key: K, item: T) => void {
  const open = new WeakMap<K, T[]>();
  return (key, item) => {
    let batch = open.get(key);
    if (!batch) {
      const b: T[] = (batch = []);
      open.set(key, b);
      setImmediate(() => {
        if (open.get(key) !== b) return; // flushed when full
        open.delete(key);
        flush(key, b);
      });
    }
    batch.push(item);
    if (batch.length >= max) {
      open.delete(key);
      flush(key, batch);
    }
  };
}
