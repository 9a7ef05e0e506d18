/**
 * Modal dialogs on the native <dialog> element (showModal: focus moves in and is kept inside, Escape
 * closes, the rest of the page is inert), and `Confirm`, the confirmation every destructive action asks for.
 */
import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { Button } from './ui.tsx';

export interface DialogProps {
  open: boolean;
  title: string;
  onClose: () => void;
  children: ReactNode;
  /** Buttons row at the bottom. */
  footer?: ReactNode;
  wide?: boolean;
}

export function Dialog({ open, title, onClose, children, footer, wide }: DialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useEffect(() => {
    const d = ref.current;
    if (!d) return;
    if (open && !d.open) d.showModal();
    if (!open && d.open) d.close();
  }, [open]);
  return (
    <dialog
      ref={ref}
      className={wide ? 'dialog dialog-wide' : 'dialog'}
      aria-labelledby={titleId}
      onCancel={(e) => {
        e.preventDefault();
        onClose();
      }}
      onClick={(e) => {
        if (e.target === ref.current) onClose(); // a click on the backdrop
      }}
    >
      {open && (
        <div className="dialog-body">
          <header className="dialog-header">
            <h2 id={titleId}>{title}</h2>
            <button type="button" className="icon-button" aria-label="Close" onClick={onClose}>×</button>
          </header>
          <div className="dialog-content">{children}</div>
          {footer && <footer className="dialog-footer">{footer}</footer>}
        </div>
      )}
    </dialog>
  );
}

export interface ConfirmProps {
  open: boolean;
  title: string;
  children: ReactNode;
  /** Label of the destructive button, e.g. "Delete network". */
  confirmLabel: string;
  onConfirm: () => Promise<unknown> | void;
  onClose: () => void;
}

/** Asks before a destructive action; the action's button says what it does, Cancel has the focus first. */
export function Confirm({ open, title, children, confirmLabel, onConfirm, onClose }: ConfirmProps) {
  const [busy, setBusy] = useState(false);
  return (
    <Dialog
      open={open}
      title={title}
      onClose={onClose}
      footer={
        <>
          <Button autoFocus onClick={onClose}>Cancel</Button>
          <Button
            variant="danger"
            busy={busy}
            onClick={async () => {
              setBusy(true);
              try {
                await onConfirm();
              } finally {
                setBusy(false);
              }
            }}
          >
            {confirmLabel}
          </Button>
        </>
      }
    >
      {children}
    </Dialog>
  );
}

/**
 * A confirmation for an action on one item (revoke a token, suspend a member, stop a share): open while
 * `item` is set; confirming runs the action and closes. The action's mutation says what happened (its
 * toasts, api/outcomes.ts); when it fails the dialog stays open.
 */
export function ConfirmAction<T>({ item, title, confirmLabel, run, onClose, children }: {
  item: T | null;
  title: string;
  confirmLabel: string;
  run: (item: T) => Promise<unknown>;
  onClose: () => void;
  children: ReactNode;
}) {
  return (
    <Confirm
      open={item !== null}
      title={title}
      confirmLabel={confirmLabel}
      onClose={onClose}
      onConfirm={() => (item === null ? undefined : run(item).then(onClose, () => undefined))}
    >
      {children}
    </Confirm>
  );
}
