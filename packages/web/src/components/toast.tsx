/**
 * Toasts: short results of actions ("Network deleted", "Could not share: …"), announced to screen readers
 * through a polite (or, for errors, assertive) live region; each closes itself after a few seconds or by
 * its close button.
 */
import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import type { Notifier } from '../api/outcomes.ts';

type Kind = 'success' | 'error' | 'info';
interface Toast {
  id: number;
  kind: Kind;
  text: string;
}

/** Results of actions come from api/outcomes.ts (each mutation's declared outcome); a page toasts only what no call answers (a job finishing). */
type ToastApi = Notifier;

const Ctx = createContext<ToastApi | null>(null);

/** The toasts of the mounted provider, for api/outcomes.ts (outside React). */
let mounted: ToastApi | null = null;
export const mountedToasts = (): ToastApi | null => mounted;

export function ToastProvider({ children }: { children: ReactNode }) {
  const [toasts, setToasts] = useState<Toast[]>([]);
  const next = useRef(1);
  const close = useCallback((id: number) => setToasts((t) => t.filter((x) => x.id !== id)), []);
  const push = useCallback(
    (kind: Kind, text: string) => {
      const id = next.current++;
      setToasts((t) => [...t.slice(-3), { id, kind, text }]);
      setTimeout(() => close(id), kind === 'error' ? 9000 : 5000);
    },
    [close],
  );
  const value = useMemo<ToastApi>(
    () => ({
      success: (t) => push('success', t),
      error: (t) => push('error', t),
      info: (t) => push('info', t),
    }),
    [push],
  );
  useEffect(() => {
    mounted = value;
    return () => {
      if (mounted === value) mounted = null;
    };
  }, [value]);
  return (
    <Ctx.Provider value={value}>
      {children}
      <div className="toasts" role="status" aria-live="polite">
        {toasts.filter((t) => t.kind !== 'error').map((t) => <ToastView key={t.id} toast={t} onClose={close} />)}
      </div>
      <div className="toasts toasts-errors" role="alert" aria-live="assertive">
        {toasts.filter((t) => t.kind === 'error').map((t) => <ToastView key={t.id} toast={t} onClose={close} />)}
      </div>
    </Ctx.Provider>
  );
}

function ToastView({ toast, onClose }: { toast: Toast; onClose: (id: number) => void }) {
  return (
    <div className={`toast toast-${toast.kind}`} data-testid="toast">
      <span>{toast.text}</span>
      <button type="button" className="toast-close" aria-label="Dismiss" onClick={() => onClose(toast.id)}>×</button>
    </div>
  );
}

export function useToast(): ToastApi {
  const t = useContext(Ctx);
  if (!t) throw new Error('useToast outside ToastProvider');
  return t;
}
